import Foundation
import JSON

/// ValueSets and CodeSystems a Questionnaire may name by canonical URL without containing
/// them: the files beside it in the surveys folder, and FHIR packages (the npm-style
/// `package/` folders of the FHIR package specification, as an IG publisher or a package
/// cache lays them out) in a folder of their own. The server reads them from their files
/// (`FHIRTerminology+Files.swift`); the core only looks them up.
public struct FHIRTerminology: Sendable {
    /// A resource and the file it came from, for messages.
    public struct Resource: Sendable {
        public let json: JSONObject
        public let file: String
    }

    public private(set) var valueSets: [String: Resource] = [:]
    public private(set) var codeSystems: [String: Resource] = [:]
    /// Every file that held a ValueSet or a CodeSystem, with or without a `url`: not a survey.
    public private(set) var files: Set<String> = []

    public init() {}

    public static let none = FHIRTerminology()

    public var isEmpty: Bool { valueSets.isEmpty && codeSystems.isEmpty }

    /// The ValueSet of a canonical URL, `url|version` naming one version.
    public func valueSet(_ canonical: String) -> Resource? { valueSets[canonical] }

    /// The CodeSystem of a canonical URL.
    public func codeSystem(_ canonical: String) -> Resource? { codeSystems[canonical] }

    /// True when the file holds a ValueSet or a CodeSystem (not a survey).
    public static func isTerminology(_ value: JSONValue) -> Bool {
        guard case .object(let object) = value, case .string(let type)? = object["resourceType"] else { return false }
        return type == "ValueSet" || type == "CodeSystem"
    }

    /// Adds the other's resources, keeping this one's where both have a canonical.
    public mutating func merge(_ other: FHIRTerminology) {
        valueSets.merge(other.valueSets) { mine, _ in mine }
        codeSystems.merge(other.codeSystems) { mine, _ in mine }
        files.formUnion(other.files)
    }

    /// Adds a resource read from `file`; a resource that is neither, or has no `url`, is not kept.
    /// The first of two with the same canonical stays.
    public mutating func add(_ value: JSONValue, file: String) {
        guard Self.isTerminology(value), case .object(let object) = value, case .string(let type)? = object["resourceType"] else { return }
        files.insert(file)
        guard case .string(let url)? = object["url"], !url.isEmpty else { return }
        let resource = Resource(json: object, file: file)
        var keys = [url]
        if case .string(let version)? = object["version"] { keys.append(url + "|" + version) }
        for key in keys {
            switch type {
            case "ValueSet": if valueSets[key] == nil { valueSets[key] = resource }
            case "CodeSystem": if codeSystems[key] == nil { codeSystems[key] = resource }
            default: break
            }
        }
    }
}
