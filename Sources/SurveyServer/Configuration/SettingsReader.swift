import Configuration
import Foundation

/// Reads every setting through swift-configuration with one precedence: a flag, else the
/// environment (`SURVEY_…`), else the config file (`--config FILE` or `SURVEY_CONFIG`), else the
/// default. A value that is given but malformed is an error, never replaced by the default.
public struct SettingsReader: Sendable {
    /// A value as given, and where it came from, for messages.
    struct Given {
        let text: String
        let source: String
    }

    /// One provider's snapshot and how a message names a value found in it.
    struct Source: Sendable {
        let snapshot: any ConfigSnapshot
        let prefix: [String]
        let describe: @Sendable (Setting) -> String
    }

    let sources: [Source]

    /// The settings from the flags given (keyed by each setting's `key`), the environment and
    /// an optional config file already read.
    public init(flags: [String: String], environment: [String: String], file: SettingsFile? = nil) {
        let flagValues = Dictionary(uniqueKeysWithValues: flags.map { (AbsoluteConfigKey([$0.key]), ConfigValue(.string($0.value), isSecret: false)) })
        var sources = [
            Source(snapshot: InMemoryProvider(name: "flags", values: flagValues).snapshot(), prefix: []) { "given as \($0.name)" },
            Source(snapshot: EnvironmentVariablesProvider(environmentVariables: environment).snapshot(), prefix: ["survey"]) {
                "from \($0.environmentName)"
            },
        ]
        if let file {
            sources.append(Source(snapshot: file.snapshot, prefix: []) { [path = file.path] in "from key \($0.key) of \(path)" })
        }
        self.sources = sources
    }

    /// The settings from the flags and the environment, with the config file that `--config`
    /// or `SURVEY_CONFIG` names read and checked.
    public static func load(flags: [String: String], environment: [String: String]) throws(SettingError) -> SettingsReader {
        let bare = SettingsReader(flags: flags, environment: environment)
        guard let path = try bare.text(.config) else { return bare }
        return SettingsReader(flags: flags, environment: environment, file: try SettingsFile(path: path, keys: Set(Setting.serve.map(\.key)).subtracting(["config"])))
    }

    /// The value given for a setting, from the first source that has it. A config file's
    /// number or boolean is asked for as `type` and written as text, so that every source's
    /// value goes through the same check.
    func given(_ setting: Setting, as type: ConfigType = .string) throws(SettingError) -> Given? {
        for source in sources {
            let key = AbsoluteConfigKey(source.prefix + [setting.key])
            if let content = try? source.snapshot.value(forKey: key, type: .string).value?.content {
                return Given(text: Self.text(of: content), source: source.describe(setting))
            }
            guard type != .string else {
                if (try? source.snapshot.value(forKey: key, type: .bool).value) != nil
                    || (try? source.snapshot.value(forKey: key, type: .stringArray).value) != nil {
                    throw SettingError("\(setting.name) \(setting.rule), and takes text (\(source.describe(setting)); \(SettingError.names(of: setting))).")
                }
                continue
            }
            do {
                if let content = try source.snapshot.value(forKey: key, type: type).value?.content {
                    return Given(text: Self.text(of: content), source: source.describe(setting))
                }
            } catch {
                throw SettingError("\(setting.name) \(setting.rule) (\(source.describe(setting)) is of another type; \(SettingError.names(of: setting))).")
            }
        }
        return nil
    }

    private static func text(of content: ConfigContent) -> String {
        switch content {
        case .string(let text): text
        case .int(let number): String(number)
        case .double(let number): number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
        case .bool(let flag): String(flag)
        case .stringArray(let texts): texts.joined(separator: ",")
        case .intArray(let numbers): numbers.map(String.init).joined(separator: ",")
        case .doubleArray(let numbers): numbers.map { String($0) }.joined(separator: ",")
        case .boolArray(let flags): flags.map { String($0) }.joined(separator: ",")
        case .bytes, .byteChunkArray: ""
        }
    }

    /// A setting's value read by `parse`; a value `parse` refuses is an error naming the setting.
    public func value<Value>(_ setting: Setting, as type: ConfigType = .string, _ parse: (String) -> Value?) throws(SettingError) -> Value? {
        guard let given = try given(setting, as: type) else { return nil }
        guard let value = parse(given.text) else { throw SettingError.invalid(setting, given) }
        return value
    }

    /// Text that is not empty.
    public func text(_ setting: Setting) throws(SettingError) -> String? {
        try value(setting) { $0.isEmpty ? nil : $0 }
    }

    /// A whole number within `range`.
    public func integer(_ setting: Setting, in range: ClosedRange<Int>) throws(SettingError) -> Int? {
        try value(setting, as: .double) { Int($0.trimmingCharacters(in: .whitespaces)).flatMap { range.contains($0) ? $0 : nil } }
    }

    /// A finite number more than `minimum` (or equal to it, with `orEqual`) and at most `maximum`.
    public func number(_ setting: Setting, above minimum: Double, upTo maximum: Double = .greatestFiniteMagnitude) throws(SettingError) -> Double? {
        try value(setting, as: .double) { text in
            Double(text.trimmingCharacters(in: .whitespaces)).flatMap { $0.isFinite && $0 > minimum && $0 <= maximum ? $0 : nil }
        }
    }

    /// true or false, also as 1/0, yes/no and on/off.
    public func boolean(_ setting: Setting) throws(SettingError) -> Bool? {
        try value(setting, as: .bool) { text in
            switch text.lowercased() {
            case "true", "1", "yes", "on": true
            case "false", "0", "no", "off": false
            default: nil
            }
        }
    }

    /// A list, given as comma-separated text or, in a config file, as an array of strings.
    public func list(_ setting: Setting) throws(SettingError) -> [String]? {
        try value(setting, as: .stringArray) { text in
            text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
    }
}
