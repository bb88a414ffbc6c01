import Foundation
import SurveyRendering
import Testing
@testable import SurveyCore

private typealias Kit = AnswerTestKit

@Suite("AnswerParser: location")
struct AnswerParserLocationTests {
    static let place = AnswerFormat.location(LocationFormat())

    @Test func locationWithoutCoordinates() {
        #expect(Kit.answer(Kit.parse(Self.place, ["q": "  10 Downing Street, London "])) == .location(LocationAnswer(userInput: "10 Downing Street, London")))
        #expect(Kit.isEmpty(Kit.parse(Self.place, ["q": " "])))
        #expect(Kit.isEmpty(Kit.parse(Self.place, ["q.latitude": "51.5", "q.longitude": "-0.12"])))
    }

    @Test("location coordinates are kept only when both are valid",
          arguments: [("51.5034", "-0.1276", true), ("90", "180", true), ("-90", "-180", true), ("90.1", "0", false), ("0", "180.5", false),
                      ("51.5", nil, false), (nil, "-0.12", false), ("north", "west", false), ("nan", "0", false)] as [(String?, String?, Bool)])
    func locationCoordinates(latitude: String?, longitude: String?, kept: Bool) {
        var fields = ["q": "Somewhere"]
        if let latitude { fields["q.latitude"] = latitude }
        if let longitude { fields["q.longitude"] = longitude }
        guard case .answer(.location(let location)) = Kit.parse(Self.place, fields) else {
            Issue.record("expected a location")
            return
        }
        #expect(location.userInput == "Somewhere")
        if kept {
            #expect(location.latitude == Double(latitude!))
            #expect(location.longitude == Double(longitude!))
        } else {
            #expect(location.latitude == nil)
            #expect(location.longitude == nil)
        }
    }
}
