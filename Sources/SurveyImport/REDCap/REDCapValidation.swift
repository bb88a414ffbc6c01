import JSON

/// A text field's validation type ("Text Validation Type") as an answer format.
enum REDCapValidation {
    /// Text checked by a regular expression: the pattern and the message shown when it fails.
    static let patterns: [String: (pattern: String, message: String)] = [
        "phone": ("^\\(?[2-9][0-9]{2}\\)?[-. ]?[2-9][0-9]{2}[-. ]?[0-9]{4}$", "Enter a phone number such as 555-555-1234."),
        "phone_australia": ("^(\\+?61|0)[2-478]( ?[0-9]){8}$", "Enter an Australian phone number."),
        "zipcode": ("^[0-9]{5}(-[0-9]{4})?$", "Enter a ZIP code of 5 or 9 digits."),
        "postalcode_australia": ("^[0-9]{4}$", "Enter a postcode of 4 digits."),
        "postalcode_canada": ("^[ABCEGHJ-NPRSTVXY][0-9][ABCEGHJ-NPRSTV-Z] ?[0-9][ABCEGHJ-NPRSTV-Z][0-9]$", "Enter a postal code such as K1A 0B1."),
        "postalcode_french": ("^[0-9]{5}$", "Enter a postal code of 5 digits."),
        "postalcode_germany": ("^[0-9]{5}$", "Enter a postal code of 5 digits."),
        "postalcode_uk": ("^[A-Za-z]{1,2}[0-9][A-Za-z0-9]? ?[0-9][A-Za-z]{2}$", "Enter a postcode such as SW1A 1AA."),
        "alpha_only": ("^[A-Za-z]+$", "Enter letters only."),
        "ssn": ("^[0-9]{3}-?[0-9]{2}-?[0-9]{4}$", "Enter a number such as 123-45-6789."),
        "mrn_10d": ("^[0-9]{10}$", "Enter 10 digits."),
        "mrn_generic": ("^[0-9]+$", "Enter digits only."),
        "vmrn": ("^[0-9]{1,10}$", "Enter up to 10 digits."),
        "time_mm_ss": ("^[0-5][0-9]:[0-5][0-9]$", "Enter minutes and seconds such as 04:30."),
    ]

    /// The format, the kind of value it records, and a warning where something is lost.
    static func format(_ validation: String, minimum: String, maximum: String) -> (format: JSONValue, kind: ImportedField.Kind, warning: String?) {
        let bound = { (text: String) -> JSONValue? in Double(text).map(JSONValue.number) }
        switch validation {
        case "":
            return (.object(["type": .string("text")]), .text, nil)
        case "integer":
            return (.object(["type": .string("numeric"), "style": .string("integer"), "minimum": bound(minimum), "maximum": bound(maximum)]), .number, nil)
        case "number", "number_comma_decimal", "float":
            return (.object(["type": .string("numeric"), "style": .string("decimal"), "minimum": bound(minimum), "maximum": bound(maximum)]), .number, nil)
        case _ where validation.hasPrefix("number_") && validation.contains("dp"):
            let digits = validation.dropFirst("number_".count).prefix { $0.isNumber }
            return (.object(["type": .string("numeric"), "style": .string("decimal"), "maximumFractionDigits": Int(digits).map { .number(Double($0)) },
                             "minimum": bound(minimum), "maximum": bound(maximum)]), .number, nil)
        case "email":
            return (.object(["type": .string("email")]), .text, nil)
        case "date_ymd", "date_mdy", "date_dmy", "date":
            return (.object(["type": .string("date"), "style": .string("date"), "minimumDate": dateBound(minimum), "maximumDate": dateBound(maximum),
                             "daysBeforeCurrentDate": nil, "daysAfterCurrentDate": nil]).withRelative(minimum, maximum), .date, nil)
        case _ where validation.hasPrefix("datetime_"):
            return (.object(["type": .string("date"), "style": .string("dateAndTime"), "minimumDate": dateBound(minimum), "maximumDate": dateBound(maximum)]),
                    .dateTime, validation.contains("seconds") ? "the seconds of \(validation) are not asked; the time is to the minute" : nil)
        case "time", "time_hh_mm_ss":
            return (.object(["type": .string("timeOfDay")]), .time, validation == "time_hh_mm_ss" ? "the seconds of time_hh_mm_ss are not asked" : nil)
        default:
            if let (pattern, message) = patterns[validation] {
                return (.object(["type": .string("text"), "validationRegularExpression": .string(pattern), "invalidMessage": .string(message)]), .text, nil)
            }
            return (.object(["type": .string("text")]), .text, "the validation type \"\(validation)\" is not known here; the answer is taken as text")
        }
    }

    /// A date bound as `YYYY-MM-DD` (the dictionary writes `2024-01-31` or `2024-01-31 08:00`), nil for none or `today`.
    private static func dateBound(_ text: String) -> JSONValue? {
        let day = String(text.prefix(10))
        guard day.count == 10, day.split(separator: "-").count == 3 else { return nil }
        return .string(day)
    }
}

private extension JSONValue {
    /// `today` as a bound: no day before (minimum) or after (maximum) today.
    func withRelative(_ minimum: String, _ maximum: String) -> JSONValue {
        guard case .object(var object) = self else { return self }
        if minimum.lowercased() == "today" { object["daysBeforeCurrentDate"] = .number(0) }
        if maximum.lowercased() == "today" { object["daysAfterCurrentDate"] = .number(0) }
        return .object(object)
    }
}
