import JSON
import SurveyCore

/// Where each part of an imported survey came from in the file the team has (a dictionary's
/// row, a form's sheet and row), so that the survey checker's findings name that place and not
/// a path in a survey file nobody wrote.
public struct ImportOrigins: Sendable {
    private var places: [JSONPath: String] = [:]
    /// The place of each step's skip rule, by step identifier.
    private var stepPlaces: [String: String] = [:]

    public init() {}

    mutating func record(_ path: JSONPath, step: String? = nil, _ place: String) {
        places[path] = place
        if let step { stepPlaces[step] = place }
    }

    /// The finding told at its place in the imported file.
    public func placed(_ diagnostic: Diagnostic) -> Diagnostic {
        let components = diagnostic.path.components
        var place = diagnostic.path.nearest(in: places)
        if place == nil, components.count >= 2, components[0] == .key("skipRules"), case .key(let step) = components[1] {
            place = stepPlaces[step]
        }
        return Diagnostic(diagnostic.severity, .root, "\(place ?? "The survey made from the file"): \(diagnostic.message)")
    }
}

/// A survey file made from another format, with the places its parts came from.
public struct ImportedSurvey: Sendable {
    public let survey: JSONValue
    public let origins: ImportOrigins

    public var identifier: String {
        if case .object(let object) = survey, case .string(let identifier)? = object["identifier"] { return identifier }
        return ""
    }
}
