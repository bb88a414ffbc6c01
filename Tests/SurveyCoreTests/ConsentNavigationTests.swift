import Foundation
import JSON
@testable import SurveyCore
import Testing

/// The consent steps in the engine: a page per section, Agree with the typed names, a drawing
/// checked against its bounds, certification on the review's second page, and Disagree.
@Suite("Consent in the navigator")
struct ConsentNavigationTests {
    static let survey: JSONValue = .object([
        "identifier": .string("consent"),
        "consentDocument": .object([
            "title": .string("Consent"), "version": .string("3"),
            "sections": .array([
                .object(["type": .string("overview"), "summary": .string("What it is.")]),
                .object(["type": .string("onlyInDocument"), "title": .string("Contact"), "content": .string("Call us.")]),
                .object(["type": .string("privacy"), "summary": .string("Kept apart."), "content": .string("How.")]),
            ]),
            "signatures": .array([.object(["identifier": .string("participant")])]),
        ]),
        "steps": .array([
            .object(["identifier": .string("about"), "type": .string("visualConsent")]),
            .object(["identifier": .string("sharing"), "type": .string("consentSharing"),
                     "investigatorShortDescription": .string("us"), "investigatorLongDescription": .string("Us and partners")]),
            .object(["identifier": .string("review"), "type": .string("consentReview"), "signature": .string("participant")]),
            .object(["identifier": .string("done"), "type": .string("completion")]),
        ]),
    ])

    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    static func navigator() throws -> Navigator {
        let (task, diagnostics) = SurveyLoader.diagnose(survey)
        return Navigator(task: try #require(task, "\(diagnostics)"), timeZone: TimeZone(identifier: "UTC"))
    }

    static func post(_ navigator: Navigator, _ run: TaskRun, _ pairs: [(String, String)], at seconds: Double) -> SubmissionOutcome {
        navigator.answer(run, visit: run.cursor, fields: FormFields(pairs: pairs),
                         context: AnswerContext(language: "en", now: start.addingTimeInterval(seconds), timeZone: navigator.timeZone))
    }

    /// The run at the review's signing page.
    static func atReview(_ navigator: Navigator) throws -> TaskRun {
        var run = navigator.start(now: start)
        for (seconds, pairs) in [(1.0, []), (2, []), (3, [("sharing", "false")])] as [(Double, [(String, String)])] {
            guard case .accepted(let next) = post(navigator, run, pairs, at: seconds) else { throw CocoaError(.featureUnsupported) }
            run = next
        }
        return run
    }

    @Test("The visual consent shows a page per section but the document-only one, and Back walks them")
    func sectionPages() throws {
        let navigator = try Self.navigator()
        let step = try #require(navigator.task.step("about"))
        #expect(navigator.pages(of: step).count == 2)
        let run = navigator.start(now: Self.start)
        guard case .accepted(let second) = Self.post(navigator, run, [], at: 1) else { Issue.record("refused"); return }
        #expect(second.cursor == 0 && second.visits[0].page == 1)
        #expect(navigator.back(second, now: Self.start).visits[0].page == 0)
        let review = try Self.atReview(navigator)
        #expect(review.current?.stepIdentifier == "review")
        #expect(navigator.consent(in: review)?.sharesBroadly == false)
    }

    @Test("Agree needs both names; a drawing out of its box is refused at its field")
    func signingIsChecked() throws {
        let navigator = try Self.navigator()
        let run = try Self.atReview(navigator)
        guard case .rejected(let missing) = Self.post(navigator, run, [("consented", "true")], at: 4) else { Issue.record("accepted"); return }
        #expect(missing.map(\.field) == ["givenName", "familyName"])
        let drawn = [("consented", "true"), ("givenName", "Ana"), ("familyName", "Ruiz"), ("signatureDrawing", "M1 1 L601 5")]
        guard case .rejected(let unread) = Self.post(navigator, run, drawn, at: 4) else { Issue.record("accepted"); return }
        #expect(unread.map(\.field) == ["signatureDrawing"])
        #expect(unread.first?.problem == .catalogEntry("signatureUnreadable"))
    }

    @Test("Agree leads to certification on the same step; certifying completes the consent and the run")
    func certification() throws {
        let navigator = try Self.navigator()
        let run = try Self.atReview(navigator)
        let signed = [("consented", "true"), ("givenName", " Ana "), ("familyName", "Ruiz"), ("signatureDrawing", "M1 1 L600 200")]
        guard case .accepted(let agreed) = Self.post(navigator, run, signed, at: 4) else { Issue.record("refused"); return }
        #expect(agreed.current?.stepIdentifier == "review" && agreed.visits[agreed.cursor].page == ConsentReviewContent.certificationPage)
        #expect(!agreed.isFinished)
        let before = try #require(navigator.consent(in: agreed))
        #expect(before.consented == true && !before.certified && !before.isComplete)
        #expect(before.signedAt == Self.start.addingTimeInterval(4), "the server's time")
        // Back from the certification page: the signing page, its names kept.
        let back = navigator.back(agreed, now: Self.start)
        #expect(back.visits[back.cursor].page == ConsentReviewContent.signingPage)
        #expect(navigator.consent(in: back)?.familyName == "Ruiz")
        guard case .rejected = Self.post(navigator, agreed, [], at: 5) else { Issue.record("certified without the button"); return }
        guard case .accepted(let done) = Self.post(navigator, agreed, [("certified", "true")], at: 6) else { Issue.record("refused"); return }
        #expect(done.finishReason == .completed)
        let consent = try #require(navigator.consent(in: done))
        #expect(consent.isComplete && consent.certifiedAt == Self.start.addingTimeInterval(6))
        #expect(consent.givenName == "Ana" && consent.drawing == "M1 1 L600 200")
        let result = navigator.result(of: done, now: Self.start)
        #expect(result.stepResult("review")?.consentSignature == "participant")
        #expect(result.stepResult("review")?.results.map(\.identifier) == ["consented", "givenName", "familyName", "signatureDrawing", "certified"])
    }

    @Test("Disagree ends the run as declined, keeping the refusal alone")
    func disagree() throws {
        let navigator = try Self.navigator()
        let run = try Self.atReview(navigator)
        guard case .accepted(let declined) = Self.post(navigator, run, [("consented", "false"), ("givenName", "Kept?")], at: 4) else {
            Issue.record("refused")
            return
        }
        #expect(declined.finishReason == .declined && declined.endDate == Self.start.addingTimeInterval(4))
        #expect(declined.visits[declined.cursor].results.map(\.identifier) == ["consented"])
        #expect(navigator.consent(in: declined)?.consented == false)
        #expect(navigator.decline(declined, visit: declined.cursor, now: Self.start) == declined, "a finished run stays as it is")
        let json = navigator.result(of: declined, now: Self.start).researchKitJSON(in: navigator.timeZone)
        #expect(JSONWriter.string(json, pretty: false).contains(#""_class":"ORKConsentSignatureResult""#))
    }
}
