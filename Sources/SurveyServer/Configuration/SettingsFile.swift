import Configuration
import Foundation

/// A config file of settings: one JSON object whose keys are the settings' config keys
/// (`{"port": 8081, "trustedProxy": ["10.0.0.0/8"]}`), read by swift-configuration's
/// `JSONSnapshot` once it is known to hold nothing else.
public struct SettingsFile: Sendable {
    /// The file as it was named.
    public let path: String
    let snapshot: JSONSnapshot

    /// Reads and checks the file: valid JSON, an object, only known keys, and values that are
    /// text, numbers, true or false, or lists of text.
    public init(path: String, keys: Set<String>) throws(SettingError) {
        let names = SettingError.names(of: .config)
        guard let data = FileManager.default.contents(atPath: path) else {
            throw SettingError("--config must name a readable JSON file, and \(path) cannot be read (\(names)).")
        }
        try self.init(data: data, path: path, keys: keys)
    }

    /// Checks and reads `data` as the file at `path`.
    public init(data: Data, path: String, keys: Set<String>) throws(SettingError) {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw SettingError("The config file \(path) is not valid JSON (\(Self.reason(error))); it must be one JSON object of settings (\(SettingError.names(of: .config))).")
        }
        guard let settings = object as? [String: Any] else {
            throw SettingError("The config file \(path) must be one JSON object of settings, such as {\"port\": 8081}.")
        }
        for key in settings.keys.sorted() {
            guard keys.contains(key) else {
                let close = keys.filter { Self.isClose($0, key) }.sorted()
                let hint = close.first.map { "did you mean \"\($0)\"? " } ?? ""
                throw SettingError("The config file \(path) has an unknown key \"\(key)\": \(hint)its keys are the settings' config keys in docs/operations.md.")
            }
            switch settings[key] {
            case is String, is NSNumber: continue
            case let list as [Any] where list.allSatisfy({ $0 is String }): continue
            default:
                throw SettingError("The key \"\(key)\" of the config file \(path) must be text, a number, true or false, or a list of text.")
            }
        }
        do {
            snapshot = try data.withUnsafeBytes { bytes throws in
                try JSONSnapshot(data: RawSpan(_unsafeBytes: bytes), providerName: path, parsingOptions: .default)
            }
        } catch {
            throw SettingError("The config file \(path) cannot be read as settings: \(error).")
        }
        self.path = path
    }

    /// What JSONSerialization says is wrong, without its boilerplate.
    private static func reason(_ error: any Error) -> String {
        let nsError = error as NSError
        return (nsError.userInfo[NSDebugDescriptionErrorKey] as? String) ?? nsError.localizedDescription
    }

    /// Two keys at most two edits apart (a letter added, dropped or changed).
    private static func isClose(_ a: String, _ b: String) -> Bool {
        let a = Array(a.lowercased()), b = Array(b.lowercased())
        var previous = Array(0...b.count)
        for i in a.indices {
            var row = [i + 1]
            for j in b.indices {
                row.append(min(previous[j + 1] + 1, row[j] + 1, previous[j] + (a[i] == b[j] ? 0 : 1)))
            }
            previous = row
        }
        return previous[b.count] <= 2
    }
}
