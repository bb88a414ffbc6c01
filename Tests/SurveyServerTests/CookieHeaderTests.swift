import Hummingbird
import NIOCore
import Testing
@testable import SurveyServer

/// Every request reads its cookies straight from the Cookie header, byte by byte.
@Suite("Reading a cookie from the Cookie header")
struct CookieHeaderTests {
    static func request(cookies: [String]) -> Request {
        var fields = HTTPFields()
        for header in cookies { fields.append(.init(name: .cookie, value: header)) }
        return Request(head: HTTPRequest(method: .get, scheme: "http", authority: "localhost", path: "/", headerFields: fields),
                       body: RequestBody(buffer: ByteBuffer()))
    }

    @Test("The named cookie's value, whatever stands around it", arguments: [
        (["survey_session=abc"], "abc"),
        (["a=1; survey_session=abc; b=2"], "abc"),
        (["a=1;survey_session=abc"], "abc"),
        (["a=1;   survey_session=abc"], "abc"),
        (["survey_session_old=x; survey_session=abc"], "abc"),
        (["xsurvey_session=x; survey_session=abc"], "abc"),
        (["survey_session=a=b.c"], "a=b.c"),
        (["survey_session="], ""),
        (["a=1", "survey_session=abc"], "abc"),
        (["survey_session=first; survey_session=second"], "first"),
        (["survey_session=caf\u{e9}"], "caf\u{e9}"),
    ])
    func found(cookies: [String], expected: String) {
        #expect(Self.request(cookies: cookies).cookie(named: "survey_session") == expected)
    }

    @Test("No value when the cookie is absent or only a longer or shorter name is there", arguments: [
        [String](),
        ["a=1; b=2"],
        ["survey_session_old=x"],
        ["survey_sessio=x"],
        ["survey_session"],
        ["survey_session x=1"],
    ])
    func absent(cookies: [String]) {
        #expect(Self.request(cookies: cookies).cookie(named: "survey_session") == nil)
    }
}
