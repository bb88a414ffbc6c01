import Foundation

/// The files under a folder, in its subfolders too, hidden ones (a name that starts with ".")
/// and their contents left out. Give the folder's real path: on Linux, Foundation's walk finds
/// nothing under a symbolic link to a folder, so callers resolve links first.
enum FolderFiles {
    /// Each file's path in the folder and its full path, sorted; nil when `folder` is not a folder.
    static func list(_ folder: String) -> [(relative: String, full: String)]? {
        let manager = FileManager.default
        var isFolder: ObjCBool = false
        guard manager.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else { return nil }
        var found: [(relative: String, full: String)] = []
        let walker = manager.enumerator(atPath: folder)
        while let relative = walker?.nextObject() as? String {
            let full = folder + "/" + relative
            guard !relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }) else {
                if manager.fileExists(atPath: full, isDirectory: &isFolder), isFolder.boolValue { walker?.skipDescendants() }
                continue
            }
            guard manager.fileExists(atPath: full, isDirectory: &isFolder), !isFolder.boolValue else { continue }
            found.append((relative, full))
        }
        return found.sorted { $0.relative < $1.relative }
    }
}
