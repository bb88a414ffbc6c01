import Foundation
import JSON

/// Reads a time of day as people type it: "9:30", "09.30", "0930", "9:30pm", "9pm", "21h30",
/// in ASCII or Arabic digits ("٩:٣٠").
public enum TimeParsing {
    public static func parse(_ raw: String) -> TimeOfDay? {
        var text = LocaleDigits.ascii(raw).lowercased().replacingOccurrences(of: " ", with: "")
        var meridiem: String?
        for suffix in ["a.m.", "p.m.", "a.m", "p.m", "am", "pm"] where text.hasSuffix(suffix) {
            meridiem = suffix.hasPrefix("a") ? "am" : "pm"
            text = String(text.dropLast(suffix.count))
            break
        }
        var hourText = text
        var minuteText = "00"
        if let separator = text.firstIndex(where: { $0 == ":" || $0 == "." || $0 == "h" }) {
            hourText = String(text[..<separator])
            minuteText = String(text[text.index(after: separator)...])
            if minuteText.isEmpty { minuteText = "00" }
        } else if text.count == 4 || (text.count == 3 && meridiem != nil) {
            hourText = String(text.dropLast(2))
            minuteText = String(text.suffix(2))
        }
        guard (1...2).contains(hourText.count), minuteText.count == 2,
              hourText.allSatisfy(\.isASCIIDigit), minuteText.allSatisfy(\.isASCIIDigit),
              var hour = Int(hourText), let minute = Int(minuteText) else { return nil }
        if let meridiem {
            guard (1...12).contains(hour) else { return nil }
            if meridiem == "am", hour == 12 { hour = 0 }
            if meridiem == "pm", hour != 12 { hour += 12 }
        }
        return TimeOfDay(hour: hour, minute: minute)
    }
}
