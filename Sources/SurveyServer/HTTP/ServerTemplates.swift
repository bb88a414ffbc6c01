import Foundation
import Mustache
import SurveyDefaults

/// The templates pages are made from: those built into the binary, or a folder's that replace
/// them. A folder must hold every template the binary has, so that no page can ever name one
/// that is absent (a missing template would render as nothing); it is checked as the server
/// starts, and again whenever the preview reads the folder anew.
enum ServerTemplates {
    /// Why a templates folder cannot be used.
    struct Problem: Error, Equatable {
        enum Kind: Equatable {
            case missing
            case lacks([String])
            case unreadable(file: String, reason: String)
        }
        /// The folder as it was given.
        let folder: String
        let kind: Kind

        /// What is wrong, naming the folder as `shown`.
        func message(showing shown: String) -> String {
            switch kind {
            case .missing:
                return "The templates folder \(shown) does not exist or is not a folder."
            case .lacks(let files):
                return "The templates folder \(shown) lacks \(files.joined(separator: ", ")): "
                    + "it must hold every template the server uses (start from a copy of the repository's Templates)."
            case .unreadable(let file, let reason):
                return "The template \(file) in \(shown) cannot be read: \(reason)"
            }
        }

        var startupError: StartupError { StartupError(messages: [message(showing: folder)]) }
    }

    /// The file of every template the server renders or includes: those the binary carries.
    static let required: [String] = DefaultFiles.templates.map(\.path).filter { $0.hasSuffix(".mustache") }.sorted()

    /// The binary's templates, or the folder's when one is given.
    static func load(folder: String?) throws(Problem) -> MustacheLibrary {
        let files: [(path: String, contents: Data)]
        if let folder {
            files = try read(folder)
            let present = Set(files.map(\.path))
            let lacking = required.filter { !present.contains($0) }
            if !lacking.isEmpty { throw Problem(folder: folder, kind: .lacks(lacking)) }
        } else {
            files = DefaultFiles.templates.map { ($0.path, $0.contents) }
        }
        var templates: [String: MustacheTemplate] = [:]
        for (path, contents) in files where path.hasSuffix(".mustache") {
            do {
                templates[String(path.dropLast(".mustache".count))] = try MustacheTemplate(string: String(decoding: contents, as: UTF8.self))
            } catch {
                throw Problem(folder: folder ?? "built into the binary", kind: .unreadable(file: path, reason: "\(error)"))
            }
        }
        return MustacheLibrary(templates: templates)
    }

    /// The template files of `folder` (through a symbolic link if it is one), for noticing a change.
    static func files(in folder: String) -> [String] {
        let base = URL(fileURLWithPath: folder).resolvingSymlinksInPath().path
        return (FolderFiles.list(base) ?? []).map(\.relative).filter { $0.hasSuffix(".mustache") }.map { base + "/" + $0 }
    }

    private static func read(_ folder: String) throws(Problem) -> [(path: String, contents: Data)] {
        let base = URL(fileURLWithPath: folder).resolvingSymlinksInPath().path
        guard let files = FolderFiles.list(base) else { throw Problem(folder: folder, kind: .missing) }
        var read: [(path: String, contents: Data)] = []
        for file in files {
            guard let contents = FileManager.default.contents(atPath: file.full) else {
                throw Problem(folder: folder, kind: .unreadable(file: file.relative, reason: "the file cannot be opened"))
            }
            read.append((file.relative, contents))
        }
        return read
    }
}
