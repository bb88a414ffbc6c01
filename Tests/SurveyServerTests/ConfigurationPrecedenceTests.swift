import Foundation
import SurveyServer
import Testing

/// One precedence for every setting: a flag, else the environment, else the config file, else the default.
@Suite struct ConfigurationPrecedenceTests {
    let file = try! SettingsFile(data: Data(#"{"port": 9003, "host": "10.0.0.3", "trustedProxy": ["10.0.0.0/8"]}"#.utf8),
                                 path: "test.json", keys: Set(Setting.serve.map(\.key)))

    @Test func aFlagWinsOverTheEnvironmentAndTheFile() throws {
        let reader = SettingsReader(flags: ["port": "9001"], environment: ["SURVEY_PORT": "9002"], file: file)
        #expect(try ServerConfiguration(settings: reader).port == 9001)
    }

    @Test func theEnvironmentWinsOverTheFile() throws {
        let reader = SettingsReader(flags: [:], environment: ["SURVEY_PORT": "9002"], file: file)
        #expect(try ServerConfiguration(settings: reader).port == 9002)
    }

    @Test func theFileWinsOverTheDefault() throws {
        let configuration = try ServerConfiguration(settings: SettingsReader(flags: [:], environment: [:], file: file))
        #expect(configuration.port == 9003)
        #expect(configuration.host == "10.0.0.3")
    }

    @Test func nothingGivenLeavesTheDefaults() throws {
        let configuration = try ServerConfiguration(settings: SettingsReader(flags: [:], environment: [:]))
        #expect(configuration.port == 8080)
        #expect(configuration.host == "127.0.0.1")
        #expect(configuration.headerTimeout == 10)
        #expect(configuration.accessLog)
    }

    @Test func camelCaseKeysAreReadFromTheirEnvironmentNames() throws {
        let reader = SettingsReader(flags: [:], environment: ["SURVEY_HEADER_TIMEOUT": "2.5", "SURVEY_ACCESS_LOG": "off",
                                                             "SURVEY_RUNS_PER_HOUR": "0"])
        let configuration = try ServerConfiguration(settings: reader)
        #expect(configuration.headerTimeout == 2.5)
        #expect(!configuration.accessLog)
        #expect(configuration.runsPerClientPerHour == nil)
    }

    @Test func everySettingsEnvironmentNameIsTheOneScriptsUse() {
        let names = Setting.serve.map(\.environmentName)
        for name in ["SURVEY_PORT", "SURVEY_PUBLIC_URL", "SURVEY_TRUSTED_PROXY", "SURVEY_KIOSK_PIN", "SURVEY_MAX_CONNECTIONS",
                     "SURVEY_WEBHOOK_URL", "SURVEY_WEBHOOK_SECRET", "SURVEY_SECRET", "SURVEY_CONFIG", "SURVEY_PUBLIC"] {
            #expect(names.contains(name), "\(name)")
        }
    }
}
