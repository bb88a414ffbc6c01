import Foundation
import JSON

/// The consent review's own rules: Disagree ends the run, Agree needs both typed names, and a
/// drawn signature must be readable path data within its bounds.
extension Navigator {
    /// True when a post to the consent review's signing page says Disagree.
    func declines(_ step: Step, page: Int, fields: FormFields) -> Bool {
        guard case .consentReview = step.kind, page == ConsentReviewContent.signingPage else { return false }
        return fields.trimmed(ConsentReviewContent.Field.consented)?.lowercased() == "false"
    }

    /// Disagree: the visit records the refusal and nothing else it was sent, and the run ends
    /// with its own finish reason.
    public func decline(_ run: TaskRun, visit index: Int, now: Date) -> TaskRun {
        guard !run.isFinished, run.visits.indices.contains(index), index <= run.cursor,
              let step = step(of: run.visits[index]),
              let question = step.questions.first(where: { $0.identifier == ConsentReviewContent.Field.consented }) else { return run }
        var run = run
        run.cursor = index
        var visit = run.visits[index]
        visit.results = [.make(for: question, answer: .boolean(false), startDate: visit.startDate, endDate: now, timeZone: timeZone)]
        visit.isAnswered = true
        visit.endDate = now
        run.visits[index] = visit
        finish(&run, reason: .declined, now: now)
        return run
    }

    /// The issues of a consent review page beyond its questions' own: a drawing that is not
    /// readable path data, or goes out of its box.
    func consentIssues(_ step: Step, page: Int, fields: FormFields) -> [AnswerIssue] {
        guard case .consentReview = step.kind, page == ConsentReviewContent.signingPage else { return [] }
        let field = ConsentReviewContent.Field.drawing
        if case .failure = SignatureDrawing.read(fields.trimmed(field)) {
            return [AnswerIssue(field: field, code: .pattern, problem: .catalogEntry("signatureUnreadable"))]
        }
        return []
    }

    /// The participant's consent in a run: what they chose, typed and drew on the review step.
    public func consent(in run: TaskRun) -> ConsentRecord? {
        guard takesConsent, let visit = run.path.last(where: { step(of: $0).map { if case .consentReview = $0.kind { true } else { false } } ?? false }),
              let step = step(of: visit), case .consentReview(let content) = step.kind else { return nil }
        let fields = ConsentReviewContent.Field.self
        func text(_ identifier: String) -> String? {
            if case .text(let value)? = visit.result(identifier)?.answer { return value }
            return nil
        }
        func flag(_ identifier: String) -> Bool? {
            if case .boolean(let value)? = visit.result(identifier)?.answer { return value }
            return nil
        }
        let sharing = run.path.lazy.compactMap { earlier -> Bool? in
            guard let shown = self.step(of: earlier), case .consentSharing = shown.kind,
                  case .boolean(let broadly)? = earlier.result(shown.identifier)?.answer else { return nil }
            return broadly
        }.last
        return ConsentRecord(stepIdentifier: step.identifier, signature: content.signature, consented: flag(fields.consented),
                             givenName: text(fields.givenName), familyName: text(fields.familyName), drawing: text(fields.drawing),
                             signedAt: visit.result(fields.givenName)?.endDate, certified: flag(fields.certified) == true,
                             certifiedAt: visit.result(fields.certified)?.endDate, sharesBroadly: sharing)
    }
}

/// A participant's consent as a run holds it, read from the review step's results.
public struct ConsentRecord: Sendable, Hashable {
    public var stepIdentifier: String
    public var signature: String
    /// True for Agree, false for Disagree, nil while the review has not been answered.
    public var consented: Bool?
    public var givenName: String?
    public var familyName: String?
    /// A drawn signature's path data, when one was drawn.
    public var drawing: String?
    /// When the server recorded the signature.
    public var signedAt: Date?
    public var certified: Bool
    public var certifiedAt: Date?
    /// The sharing step's answer: true to share broadly, false for the study team only.
    public var sharesBroadly: Bool?

    /// The consent is complete once the participant agreed, signed and certified it.
    public var isComplete: Bool { consented == true && certified }
}
