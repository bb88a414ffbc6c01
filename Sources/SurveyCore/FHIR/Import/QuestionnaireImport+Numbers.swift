import Foundation
import JSON

extension QuestionnaireImport.Reader {
    /// ResearchKit's scale shows 1 to 13 steps between its ends, and its ends lie within ±10000.
    static let scaleSteps = 1...13
    static let scaleBounds = -10_000.0...10_000.0

    /// A numeric format for decimal, integer and quantity items; a slider becomes a scale
    /// (integer) or a continuous scale (decimal) when its bounds allow.
    func numberFormat(for item: Item) -> JSONObject {
        let owner = "The item '\(item.linkId)'"
        let isInteger = item.type == "integer"
        let minimum = item.extensions.take(FHIRExtensionURL.minValue).flatMap { number(of: $0, owner: owner) }
        let maximum = item.extensions.take(FHIRExtensionURL.maxValue).flatMap { number(of: $0, owner: owner) }
        var digits: Int?
        if !isInteger, let entry = item.extensions.take(FHIRExtensionURL.maxDecimalPlaces) {
            digits = integer(of: entry, owner: owner)
        }
        let unit = unitName(for: item)
        let control = itemControl(of: item)

        if control?.code == "slider", item.type != "quantity" {
            if let minimum, let maximum {
                if isInteger, let scale = scaleFormat(for: item, minimum: minimum, maximum: maximum, at: control!.path) { return scale }
                if !isInteger {
                    var format = Self.fields(["type": .string("continuousScale"), "minimum": .number(minimum), "maximum": .number(maximum)])
                    if let digits { format["maximumFractionDigits"] = .number(Double(digits)) }
                    return format
                }
            } else {
                warning(control!.path, "\(owner) asks for a slider, but a slider needs both a minValue and a maxValue; it is shown as a number field.")
            }
        } else {
            ignoreControl(control, of: item)
        }

        var format = Self.fields(["type": .string("numeric"), "style": .string(isInteger ? "integer" : "decimal")])
        if let minimum { format["minimum"] = .number(minimum) }
        if let maximum { format["maximum"] = .number(maximum) }
        if let digits { format["maximumFractionDigits"] = .number(Double(digits)) }
        if let unit { format["unit"] = .string(unit) }
        return format
    }

    /// A scale for an integer slider when its steps fit ResearchKit's limits; otherwise a warning and nil.
    private func scaleFormat(for item: Item, minimum: Double, maximum: Double, at path: JSONPath) -> JSONObject? {
        let owner = "The item '\(item.linkId)'"
        var step = 1
        if let entry = item.extensions.take(FHIRExtensionURL.sliderStepValue), let given = integer(of: entry, owner: owner) {
            step = given
        }
        let range = maximum - minimum
        let steps = step > 0 ? range / Double(step) : 0
        guard minimum == minimum.rounded(), maximum == maximum.rounded(), Self.scaleBounds.contains(minimum), Self.scaleBounds.contains(maximum),
              steps == steps.rounded(), Self.scaleSteps.contains(Int(steps)) else {
            warning(path, "\(owner) asks for a slider from \(JSONWriter.number(minimum)) to \(JSONWriter.number(maximum)) in steps of \(step), "
                + "but a scale here has whole-number ends and 1 to 13 steps; it is shown as a number field.")
            return nil
        }
        return Self.fields(["type": .string("scale"), "minimum": .number(minimum), "maximum": .number(maximum), "step": .number(Double(step))])
    }

    /// The unit shown beside a number: `questionnaire-unit`, else (for a quantity) the first `questionnaire-unitOption`.
    private func unitName(for item: Item) -> String? {
        let owner = "The item '\(item.linkId)'"
        if let entry = item.extensions.take(FHIRExtensionURL.unit) {
            return codingName(of: entry, owner: owner)
        }
        guard item.type == "quantity" else { return nil }
        let options = item.extensions.take([FHIRExtensionURL.unitOption])
        guard let first = options.first else { return nil }
        if options.count > 1 {
            warning(options[1].path, "\(owner) offers \(options.count) units; only the first is offered here.")
        }
        return codingName(of: first, owner: owner)
    }

    /// A valueCoding's display, else its code.
    private func codingName(of entry: Extensions.Entry, owner: String) -> String? {
        guard case .object(let coding)? = value(of: entry, ["Coding"], owner: owner) else { return nil }
        if case .string(let display)? = coding["display"] { return display }
        if case .string(let code)? = coding["code"] { return code }
        warning(entry.path, "\(owner) has a unit with neither a display nor a code; it is left out.")
        return nil
    }
}
