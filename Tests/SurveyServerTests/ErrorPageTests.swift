import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import SurveyRendering
import Testing
@testable import SurveyServer

@Suite("Error pages in the participant's language")
struct ErrorPageTests {
    @Test("A missing page is worded in the language the browser asks for", arguments: ["en", "es", "de", "fr", "ar"])
    func notFoundInEachLanguage(_ language: String) async throws {
        let app = try await makeApplication()
        try await app.test(.router) { client in
            let response = try await client.execute(uri: "/surveys/no-such-survey", method: .get,
                                                    headers: [.acceptLanguage: "\(language);q=0.9, en;q=0.5"])
            #expect(response.status == .notFound)
            let page = String(buffer: response.body)
            let words = Catalog(language: language)
            #expect(page.contains("<html lang=\"\(language)\" dir=\"\(language == "ar" ? "rtl" : "ltr")\">"))
            #expect(page.contains(HTMLEscaping.escape(words["notFoundTitle"])))
            #expect(page.contains(HTMLEscaping.escape(words["errorNoSurvey"])))
        }
    }

    @Test("A form that cannot be read is refused with a 4xx page in the asked language, not English")
    func unreadableFormInGerman() async throws {
        let app = try await makeApplication()
        try await app.test(.router) { client in
            let response = try await client.execute(uri: "/surveys/wellbeing-check", method: .post,
                                                    headers: [.acceptLanguage: "de-DE", .contentType: "text/plain"],
                                                    body: ByteBuffer(string: "x"))
            #expect(response.status == .unsupportedMediaType)
            #expect(String(buffer: response.body).contains(HTMLEscaping.escape(Catalog(language: "de")["errorFormType"])))
        }
    }

    @Test("On a kiosk's address, the error page leads back to the kiosk's start screen, not the survey list, with large targets")
    func kioskErrorPageStaysInTheKiosk() async throws {
        let app = try await KioskTests.kioskApplication()
        try await app.test(.router) { client in
            let response = try await client.execute(uri: "/kiosk/wellbeing-check/nothing-here", method: .get)
            #expect(response.status == .notFound)
            let page = String(buffer: response.body)
            #expect(page.contains("href=\"/kiosk/wellbeing-check\""))
            #expect(!page.contains("href=\"/\""))
            #expect(page.contains("<body class=\"kiosk\">"), "the kiosk's large targets on its error pages too")
            let elsewhere = try await client.execute(uri: "/surveys/nothing-here", method: .get)
            #expect(!String(buffer: elsewhere.body).contains("class=\"kiosk\""))
        }
    }
}
