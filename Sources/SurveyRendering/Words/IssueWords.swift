import Foundation
import JSON
import SurveyCore

/// Words for what the core reports as data: the issues a participant corrects, and the
/// dates and numbers in them, in the catalog's language.
extension Catalog {
    /// The entry `key` with `%@` (or `%1$@`, `%2$@`, …) replaced by `values` in order, in one
    /// pass, so that a value holding "%@" is never read as a slot.
    func fill(_ key: String, _ values: String...) -> String {
        Self.fill(template: self[key], values)
    }

    /// `source` with `%@` (or `%1$@`, `%2$@`, …) replaced by `values` in order, in one pass:
    /// the filling every table of words in this module shares.
    static func fill(template source: String, _ values: [String]) -> String {
        let template = Array(source.unicodeScalars)
        var text = String.UnicodeScalarView()
        var next = 0
        var index = 0
        while index < template.count {
            if template[index] == "%", index + 1 < template.count {
                if template[index + 1] == "@" {
                    if next < values.count { text.append(contentsOf: values[next].unicodeScalars) }
                    next += 1
                    index += 2
                    continue
                }
                if index + 3 < template.count, let digit = Int(String(template[index + 1])),
                   template[index + 2] == "$", template[index + 3] == "@" {
                    if digit >= 1, digit <= values.count { text.append(contentsOf: values[digit - 1].unicodeScalars) }
                    index += 4
                    continue
                }
            }
            text.append(template[index])
            index += 1
        }
        return String(text)
    }

    /// A number as the language writes it: a decimal comma in the languages that use one.
    public func number(_ value: Double) -> String {
        let text = JSONWriter.number(value)
        return NumberParsing.usesDecimalComma(language) ? text.replacingOccurrences(of: ".", with: ",") : text
    }

    /// "1 January 2026".
    public func day(_ date: CalendarDate) -> String {
        fill("dayFormat", String(date.day), self["month.\(date.month)"], String(date.year))
    }

    /// "10 March 2026 at 09:00", in the zone the answer was read in.
    public func moment(_ instant: Date, _ zone: TimeZone) -> String {
        fill("momentFormat", day(CalendarDate(instant, in: zone)), TimeOfDay(instant, in: zone).description)
    }

    /// What to tell the participant about `issue`.
    public func words(for issue: AnswerIssue) -> String { words(for: issue.problem) }

    public func words(for problem: AnswerIssue.Problem) -> String {
        switch problem {
        case .missing(let kind): return self["missing." + kind.rawValue]
        case .conflictingValues: return self["conflictingValues"]
        case .selectAnOption: return self["selectAnOption"]
        case .selectOneOnly: return self["selectOneOnly"]
        case .selectEveryList: return self["selectEveryList"]
        case .otherNotChosen(let choice): return fill("otherNotChosen", plain(choice))
        case .exclusiveWithOthers(let choice): return fill("exclusiveWithOthers", plain(choice))
        case .otherTextMissing(let choice): return fill("otherTextMissing", plain(choice))
        case .enterNumber(let whole):
            return whole ? self["enterWholeNumber"] : fill("enterNumber", number(3.5))
        case .fractionDigits(let digits):
            switch digits {
            case 0: return self["enterWholeNumber"]
            case 1: return self["fractionDigitsOne"]
            default: return fill("fractionDigitsMany", String(digits))
            }
        case .numberBetween(let low, let high, let unit): return fill("numberBetween", number(low), number(high), unit)
        case .numberAtLeast(let low, let unit): return fill("numberAtLeast", number(low), unit)
        case .numberAtMost(let high, let unit): return fill("numberAtMost", number(high), unit)
        case .scaleValueBetween(let low, let high): return fill("scaleValueBetween", String(low), String(high))
        case .enterTime: return self["enterTime"]
        case .timeOnInterval(let minutes):
            let example = minutes * (minutes >= 30 ? 1 : 2) % 60
            return fill("timeOnInterval", String(minutes), example < 10 ? "0\(example)" : String(example))
        case .hoursRange: return self["hoursRange"]
        case .minutesRange: return self["minutesRange"]
        case .minutesInSteps(let step): return fill("minutesInSteps", String(step), String(step * min(2, 59 / step)))
        case .enterDate: return self["enterDate"]
        case .realDate: return fill("realDate", dateExample)
        case .datePartMissing(let part): return self["datePart." + part.rawValue]
        case .yearFourDigits: return self["yearFourDigits"]
        case .dateBetween(let earliest, let latest):
            switch (earliest, latest) {
            case (let low?, let high?) where low == high: return fill("dateOn", day(low))
            case (let low?, let high?): return fill("dateBetween", day(low), day(high))
            case (let low?, nil): return fill("dateOnOrAfter", day(low))
            case (nil, let high?): return fill("dateOnOrBefore", day(high))
            default: return self["enterRealDate"]
            }
        case .momentNotBefore(let instant, let zone): return fill("momentNotBefore", moment(instant, zone))
        case .momentNotAfter(let instant, let zone): return fill("momentNotAfter", moment(instant, zone))
        case .tooLong(let limit): return fill("tooLong", String(limit))
        case .tooShort(let limit): return fill("tooShort", String(limit))
        case .pattern(let message, let answer):
            guard let message else { return self["checkAnswer"] }
            return message.resolved(for: language).replacingOccurrences(of: "%@", with: answer)
        case .email: return self["email"]
        case .ageWholeYears: return self["ageWholeYears"]
        case .ageBetween(let low, let high): return fill("ageBetween", String(low), String(high))
        case .heightCentimetres: return self["heightCentimetres"]
        case .heightBetweenCentimetres: return self["heightBetweenCentimetres"]
        case .heightAboveZero: return self["heightAboveZero"]
        case .feetRange: return self["feetRange"]
        case .inchesRange: return self["inchesRange"]
        case .weightNumber(let pounds): return self[pounds ? "weightInPounds" : "weightInKilograms"]
        case .weightBetween(let low, let high, let pounds): return fill("weightBetween", number(low), number(high), pounds ? "lb" : "kg")
        case .poundsWhole: return self["poundsWhole"]
        case .ouncesRange: return self["ouncesRange"]
        case .instancesAtLeast(let count): return fill("repeatAtLeast", number(Double(count)))
        case .catalogEntry(let key): return self[key]
        }
    }

    /// Author text without its markup, for quoting a choice in a message.
    private func plain(_ text: LocalizedText) -> String {
        text.resolved(for: language).replacingOccurrences(of: "<[^>]*>", with: "", options: .regularExpression)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
