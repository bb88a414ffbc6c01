import Foundation
import Mustache
import SurveyCore
import SurveyRendering

/// Why the server cannot start: a survey or template fault, with every message.
public struct StartupError: Error, CustomStringConvertible {
    public let messages: [String]
    public var description: String { messages.joined(separator: "\n") }
}

/// The surveys the server presents, loaded and checked at start, with their pages built.
public struct SurveyCatalog: Sendable {
    public let surveys: [String: SurveyPages]
    public let library: MustacheLibrary

    /// The elements and attributes the templates may emit; anything else stops the server.
    public static let allowedMarkup: [String: Set<String>] = {
        let rich: [String: Set<String>] = ["p": ["class", "id"], "br": [], "strong": [], "em": [], "b": [], "i": [], "u": [],
                                           "ul": ["class"], "ol": [], "li": [], "a": ["class", "href"]]
        var allowed: [String: Set<String>] = [
            "html": ["lang", "dir"], "head": [], "meta": ["charset", "name", "content"], "title": [], "link": ["rel", "href"],
            "body": [], "header": ["class"], "main": ["id", "class", "tabindex"], "span": ["class", "aria-hidden"],
            "div": ["class", "id", "role", "tabindex", "autofocus"],
            "form": ["class", "method", "action", "novalidate"],
            "input": ["type", "name", "value", "class", "id", "checked", "aria-describedby", "aria-invalid", "inputmode", "autocomplete",
                      "spellcheck", "maxlength", "placeholder"],
            "button": ["type", "class", "name", "value", "tabindex", "aria-hidden"],
            "h1": ["class", "id", "tabindex", "autofocus"], "h2": ["class"], "label": ["class", "for"],
            "fieldset": ["class", "role", "aria-describedby"], "legend": ["class"],
            "select": ["class", "id", "name", "aria-invalid", "aria-describedby"], "option": ["value", "selected"],
            "textarea": ["class", "id", "name", "rows", "maxlength", "aria-describedby", "aria-invalid"],
            "img": ["class", "src", "alt"], "details": ["class"], "summary": ["class"], "section": ["class"],
            "dl": ["class"], "dt": ["class"], "dd": ["class"],
            "video": ["class", "src", "controls", "preload"], "track": ["kind", "src", "srclang", "label", "default"],
        ]
        for (element, attributes) in rich { allowed[element, default: []].formUnion(attributes) }
        return allowed
    }()

    /// Loads every `*.json` in the folder; any error in any file stops the start with all messages.
    public static func load(surveysDirectory: String, templatesDirectory: String) async throws -> SurveyCatalog {
        let library: MustacheLibrary
        do {
            library = try await MustacheLibrary(directory: templatesDirectory)
        } catch {
            throw StartupError(messages: ["The templates in \(templatesDirectory) cannot be read: \(error)"])
        }
        let folder = URL(fileURLWithPath: surveysDirectory)
        guard let files = try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil) else {
            throw StartupError(messages: ["The surveys folder \(surveysDirectory) cannot be read."])
        }
        let checker = MarkupChecker(allowlist: allowedMarkup)
        var surveys: [String: SurveyPages] = [:]
        var messages: [String] = []
        for file in files.filter({ $0.pathExtension == "json" }).sorted(by: { $0.lastPathComponent < $1.lastPathComponent }) {
            do {
                let loaded = try SurveyLoader.load(contentsOf: file)
                if surveys[loaded.task.identifier] != nil {
                    messages.append("\(file.path): the identifier \"\(loaded.task.identifier)\" is used by another survey.")
                    continue
                }
                surveys[loaded.task.identifier] = try SurveyPages(task: loaded.task, library: library, checker: checker)
            } catch let error as SurveyLoadError {
                messages += error.errors.map { "\(file.path): \($0)" }
            } catch let error as TemplateError {
                messages.append("\(file.path): template fault: \(error)")
            }
        }
        if !messages.isEmpty { throw StartupError(messages: messages) }
        if surveys.isEmpty { throw StartupError(messages: ["The surveys folder \(surveysDirectory) holds no survey."]) }
        return SurveyCatalog(surveys: surveys, library: library)
    }
}
