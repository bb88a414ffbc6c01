import Foundation
import JSON
import SurveyCore

extension FHIRTerminology {
    /// The terminology of a surveys folder (its `*.json` ValueSets and CodeSystems) and of a
    /// packages folder (every `package/` folder in it, at its top or one level down). What
    /// cannot be read is said in `problems`, a sentence each; nothing stops for it.
    public static func load(surveysFolder: String?, packagesFolder: String?) -> (terminology: FHIRTerminology, problems: [String]) {
        var terminology = FHIRTerminology()
        var problems: [String] = []
        let manager = FileManager.default
        func jsonFiles(_ folder: URL) -> [URL] {
            ((try? manager.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? [])
                .filter { $0.pathExtension == "json" && !$0.lastPathComponent.hasPrefix(".") }
                .sorted { $0.lastPathComponent < $1.lastPathComponent }
        }
        func read(_ file: URL, quietly: Bool) {
            guard let data = try? Data(contentsOf: file), let value = try? JSONParser.parse(data) else {
                if !quietly { problems.append("\(file.path) is not a JSON file that can be read.") }
                return
            }
            terminology.add(value, file: file.standardizedFileURL.path)
        }
        if let surveysFolder {
            // Survey files are read by the catalog; only the terminology among them is kept here.
            for file in jsonFiles(URL(fileURLWithPath: surveysFolder)) { read(file, quietly: true) }
        }
        if let packagesFolder {
            let root = URL(fileURLWithPath: packagesFolder)
            var isFolder: ObjCBool = false
            guard manager.fileExists(atPath: root.path, isDirectory: &isFolder), isFolder.boolValue else {
                problems.append("The FHIR packages folder \(packagesFolder) cannot be read.")
                return (terminology, problems)
            }
            var packages: [URL] = []
            if root.lastPathComponent == "package" { packages.append(root) }
            let top = root.appendingPathComponent("package")
            if manager.fileExists(atPath: top.path) { packages.append(top) }
            let children = ((try? manager.contentsOfDirectory(at: root, includingPropertiesForKeys: nil)) ?? []).sorted { $0.path < $1.path }
            for child in children where manager.fileExists(atPath: child.appendingPathComponent("package").path) {
                packages.append(child.appendingPathComponent("package"))
            }
            if packages.isEmpty { problems.append("The FHIR packages folder \(packagesFolder) holds no package/ folder.") }
            for package in packages {
                // A package's .index.json names each file's resourceType, so the rest are not parsed.
                let indexed = indexedFiles(package)
                for file in jsonFiles(package) where file.lastPathComponent != "package.json" {
                    if let indexed, !indexed.contains(file.lastPathComponent) { continue }
                    read(file, quietly: false)
                }
            }
        }
        return (terminology, problems)
    }

    /// The ValueSet and CodeSystem files a package's `.index.json` lists; nil without one.
    private static func indexedFiles(_ package: URL) -> Set<String>? {
        guard let data = try? Data(contentsOf: package.appendingPathComponent(".index.json")),
              case .object(let index)? = try? JSONParser.parse(data), case .array(let files)? = index["files"] else { return nil }
        var names: Set<String> = []
        for case .object(let file) in files {
            guard case .string(let name)? = file["filename"], case .string(let type)? = file["resourceType"],
                  type == "ValueSet" || type == "CodeSystem" else { continue }
            names.insert(name)
        }
        return names
    }
}
