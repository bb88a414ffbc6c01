import Foundation
import JSON

/// A value a panel or lab passes in the survey's address (`?PROLIFIC_PID=…`), recorded on the
/// run when it starts. Parameters the survey does not declare are never stored.
public struct SurveyParameter: Sendable, Hashable {
    public var name: String
    public var required: Bool
    /// An ICU pattern the whole value must match.
    public var pattern: String?
    /// The longest value taken, in characters.
    public var maxLength: Int

    /// The longest value any parameter may take, whatever its `maxLength`.
    public static let lengthLimit = 500
    /// The most parameters a survey may declare.
    public static let countLimit = 30
    /// Names the server reads from a survey's address itself.
    public static let reservedNames: Set<String> = ["lang"]
    /// The step identifier rules and piped text use for a parameter: `parameters.NAME`.
    public static let selectorStep = "parameters"

    /// The parameter a selector names (`parameters.NAME`), or nil when it names none.
    public static func name(inSelector raw: String) -> String? {
        raw.hasPrefix(selectorStep + ".") ? String(raw.dropFirst(selectorStep.count + 1)) : nil
    }

    public init(name: String, required: Bool = false, pattern: String? = nil, maxLength: Int = 100) {
        self.name = name
        self.required = required
        self.pattern = pattern
        self.maxLength = maxLength
    }

    /// Why a value is refused, or nil when it is taken.
    public func fault(in value: String) -> ParameterFault? {
        if value.count > maxLength { return .tooLong(maxLength) }
        if value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) { return .malformed }
        if let pattern, BoundedRegex.wholeMatch(pattern, value) != .match { return .malformed }
        return nil
    }

    var json: JSONValue {
        var object = JSONObject([("name", .string(name))])
        object["required"] = required ? .bool(true) : nil
        object["pattern"] = pattern.map(JSONValue.string)
        object["maxLength"] = maxLength == 100 ? nil : .number(Double(maxLength))
        return .object(object)
    }
}

/// What is wrong with a parameter in a survey's address.
public enum ParameterFault: Sendable, Hashable {
    case missing
    case repeated
    case tooLong(Int)
    case malformed
}

extension SurveyTask {
    /// The declared parameters taken from an address's query items, or the first fault with
    /// the parameter's name. Undeclared names are dropped; a declared one given twice is refused.
    public func parameterValues(from items: [(name: String, value: String)]) -> Result<[String: String], ParameterError> {
        var values: [String: String] = [:]
        for parameter in parameters {
            let given = items.filter { $0.name == parameter.name }
            if given.count > 1 { return .failure(ParameterError(name: parameter.name, fault: .repeated)) }
            guard let value = given.first?.value, !value.isEmpty else {
                if parameter.required { return .failure(ParameterError(name: parameter.name, fault: .missing)) }
                continue
            }
            if let fault = parameter.fault(in: value) { return .failure(ParameterError(name: parameter.name, fault: fault)) }
            values[parameter.name] = value
        }
        return .success(values)
    }
}

public struct ParameterError: Error, Sendable, Hashable {
    public var name: String
    public var fault: ParameterFault
}
