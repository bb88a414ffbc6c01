import Foundation
import SurveyServer
import Testing

/// A value that cannot be used is an error naming the setting, never replaced by the default.
@Suite struct ConfigurationErrorTests {
    let keys = Set(Setting.serve.map(\.key))

    func error(flags: [String: String] = [:], environment: [String: String] = [:]) -> String? {
        do {
            _ = try ServerConfiguration(settings: SettingsReader(flags: flags, environment: environment))
            return nil
        } catch {
            return error.description
        }
    }

    @Test func aPortThatIsNotANumberNamesTheFlagAndTheVariable() throws {
        let message = try #require(error(environment: ["SURVEY_PORT": "abc"]))
        #expect(message.hasPrefix("--port must be a port number from 0 to 65535, not \"abc\""))
        #expect(message.contains("SURVEY_PORT"))
    }

    @Test func aNegativeTimeoutIsRefused() throws {
        let message = try #require(error(flags: ["headerTimeout": "-1"]))
        #expect(message.contains("--header-timeout must be a number of seconds more than 0"))
        #expect(message.contains("SURVEY_HEADER_TIMEOUT"))
    }

    @Test func anUnknownStoreKindIsRefusedWithoutRepeatingIt() throws {
        let message = try #require(error(environment: ["SURVEY_STORE": "mysql://user:hunter2@db/x"]))
        #expect(message.contains("--store takes a postgres:// URL"))
        #expect(!message.contains("hunter2"))
    }

    @Test func aBooleanThatIsNeitherIsRefused() throws {
        let message = try #require(error(environment: ["SURVEY_ACCESS_LOG": "maybe"]))
        #expect(message.contains("--access-log must be true or false"))
    }

    @Test func aConfigFileThatIsNotJSONIsRefused() {
        #expect(throws: SettingError.self) { try SettingsFile(data: Data("{port: 1".utf8), path: "bad.json", keys: keys) }
    }

    @Test func aConfigFileWithAnUnknownKeyNamesItAndTheClosestKey() throws {
        let thrown = #expect(throws: SettingError.self) { try SettingsFile(data: Data(#"{"prot": 1}"#.utf8), path: "c.json", keys: keys) }
        #expect(thrown?.description.contains(#"unknown key "prot": did you mean "port"?"#) == true)
    }

    @Test func aConfigFileValueOfTheWrongTypeIsRefused() throws {
        let file = try SettingsFile(data: Data(#"{"port": "eighty"}"#.utf8), path: "c.json", keys: keys)
        #expect(throws: SettingError.self) { try ServerConfiguration(settings: SettingsReader(flags: [:], environment: [:], file: file)) }
    }
}
