import Foundation

/// The templates and static files the server uses when it is given no folder for them: built
/// into the binary (by the `EmbedDefaults` plugin, from Templates/ and Public/ as they are when
/// it builds), so that it runs from any folder and needs no files beside it.
public enum DefaultFiles {
    /// Templates/, every `.mustache` file and any other.
    public static let templates: [DefaultFile] = embeddedTemplates.map(DefaultFile.init)
    /// Public/: the style sheet and images.
    public static let publicFiles: [DefaultFile] = embeddedPublic.map(DefaultFile.init)
}

/// One file as the generated source holds it.
struct EmbeddedFile {
    let path: String
    let modified: Int
    let base64: String
}

extension DefaultFile {
    init(_ file: EmbeddedFile) {
        guard let contents = Data(base64Encoded: file.base64) else {
            preconditionFailure("embed-defaults wrote \(file.path) in bad base64")
        }
        self.init(path: file.path, modified: Date(timeIntervalSince1970: TimeInterval(file.modified)), contents: contents)
    }
}
