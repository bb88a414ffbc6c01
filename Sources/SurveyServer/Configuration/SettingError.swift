/// A setting that cannot be used, said in one sentence that names it and what it accepts.
/// `survey` prints it and exits before anything starts.
public struct SettingError: Error, CustomStringConvertible, Equatable {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }

    /// A value that breaks the setting's rule: `--port must be a port number from 0 to 65535,
    /// not "abc" (from SURVEY_PORT; flag --port, env SURVEY_PORT, config key port).` A secret's
    /// value is never repeated.
    static func invalid(_ setting: Setting, _ given: SettingsReader.Given) -> SettingError {
        let shown = setting.isSecret ? "the value given" : "\"\(given.text)\""
        return SettingError("\(setting.name) \(setting.rule), not \(shown) (\(given.source); \(names(of: setting))).")
    }

    /// Every name the setting goes by, for the end of a message.
    static func names(of setting: Setting) -> String {
        (setting.flag.map { "flag \($0), " } ?? "") + "env \(setting.environmentName), config key \(setting.key)"
    }
}
