import Foundation

/// A file the binary carries from the repository's Templates/ or Public/ folder.
public struct DefaultFile: Sendable {
    /// Its path in the folder, with "/" between folders: "page.mustache", "images/face-sad.svg".
    public let path: String
    /// When it last changed before the binary was built.
    public let modified: Date
    public let contents: Data
}
