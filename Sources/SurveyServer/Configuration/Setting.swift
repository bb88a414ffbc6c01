/// One thing `survey` can be told, with every name it goes by: its key in a config file
/// (`headerTimeout`), its flag (`--header-timeout`) and its environment variable
/// (`SURVEY_HEADER_TIMEOUT`, which swift-configuration derives from the key).
public struct Setting: Sendable, Hashable {
    /// The key in a config file, and the key read through swift-configuration.
    public let key: String
    /// The command-line flag, with its dashes; nil for a secret that stays off the command line.
    public let flag: String?
    /// What the setting is for, as a flag's help begins.
    public let summary: String
    /// What a value must be, as a sentence goes on after the flag: "must be a port number from 0 to 65535".
    public let rule: String
    /// The default in words, or nil when unset means off or "none".
    public let defaultText: String?
    /// A secret is never repeated in a message.
    public let isSecret: Bool

    public init(_ key: String, _ summary: String, rule: String, default defaultText: String? = nil,
                isSecret: Bool = false, hasFlag: Bool = true) {
        self.key = key
        self.flag = hasFlag ? "--" + Self.words(of: key).joined(separator: "-") : nil
        self.summary = summary
        self.rule = rule
        self.defaultText = defaultText
        self.isSecret = isSecret
    }

    /// The environment variable: `SURVEY_` and the key's words in capitals, as
    /// swift-configuration's environment provider encodes `survey.<key>`.
    public var environmentName: String {
        "SURVEY_" + Self.words(of: key).map { $0.uppercased() }.joined(separator: "_")
    }

    /// How a message names the setting: its flag, else its environment variable.
    public var name: String { flag ?? environmentName }

    /// The flag's help: its summary, then where else it can be set and its default.
    public var help: String {
        // The config file cannot name itself.
        let fileKey = key == Setting.config.key ? "" : "; config: \(key)"
        return summary + " (env: \(environmentName)\(fileKey)" + (defaultText.map { "; default: \($0)" } ?? "") + ")"
    }

    /// The words of a camel-case key: `headerTimeout` → `header`, `timeout`.
    static func words(of key: String) -> [String] {
        var words: [String] = []
        var current = ""
        for character in key {
            if character.isUppercase, !current.isEmpty {
                words.append(current)
                current = ""
            }
            current.append(Character(character.lowercased()))
        }
        if !current.isEmpty { words.append(current) }
        return words
    }
}
