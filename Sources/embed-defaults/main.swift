import Foundation

// embed-defaults OUTPUT NAME FOLDER [NAME FOLDER]…
//
// Writes OUTPUT, a Swift file with one `embedded<NAME>: [EmbeddedFile]` list per folder: each
// file under it (hidden ones left out) by its path in the folder, with its modification time and
// its bytes in base64, which keeps them exact whatever they hold and compiles quickly.

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 3, arguments.count % 2 == 1 else {
    FileHandle.standardError.write(Data("usage: embed-defaults OUTPUT NAME FOLDER [NAME FOLDER]…\n".utf8))
    exit(2)
}

/// Every file under `folder` as (path in the folder, full path), sorted, hidden ones left out.
func files(in folder: String) -> [(relative: String, full: String)] {
    let manager = FileManager.default
    let base = URL(fileURLWithPath: folder).resolvingSymlinksInPath().path
    var found: [(String, String)] = []
    let walker = manager.enumerator(atPath: base)
    while let relative = walker?.nextObject() as? String {
        let full = base + "/" + relative
        var isFolder: ObjCBool = false
        guard !relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }),
              manager.fileExists(atPath: full, isDirectory: &isFolder), !isFolder.boolValue else { continue }
        found.append((relative, full))
    }
    return found.sorted { $0.0 < $1.0 }
}

var source = "// Made by embed-defaults as the package builds; not kept in the repository.\n"
for index in stride(from: 1, to: arguments.count, by: 2) {
    let (name, folder) = (arguments[index], arguments[index + 1])
    source += "\nlet embedded\(name): [EmbeddedFile] = [\n"
    for file in files(in: folder) {
        guard let bytes = FileManager.default.contents(atPath: file.full) else {
            FileHandle.standardError.write(Data("embed-defaults: \(file.full) cannot be read\n".utf8))
            exit(1)
        }
        let attributes = try FileManager.default.attributesOfItem(atPath: file.full)
        let modified = Int(((attributes[.modificationDate] as? Date) ?? Date(timeIntervalSince1970: 0)).timeIntervalSince1970)
        let path = file.relative.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        source += "    EmbeddedFile(path: \"\(path)\", modified: \(modified), base64: \"\(bytes.base64EncodedString())\"),\n"
    }
    source += "]\n"
}
try Data(source.utf8).write(to: URL(fileURLWithPath: arguments[0]), options: .atomic)
