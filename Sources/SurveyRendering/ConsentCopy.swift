import Foundation
import SurveyCore
import SurveyPDF

/// The signed copy of a consent, as the PDF maker draws it: the document with its sections,
/// the sharing choice, the participant's signature and, once given, the staff's
/// countersignature, in the participant's language, with the version and the run in the footer.
public struct ConsentCopy: Sendable {
    let task: SurveyTask
    let navigator: Navigator
    let texts: RichTextCache
    let languages: [String]

    /// A survey's copies, its texts sanitized once.
    public init(task: SurveyTask, timeZone: TimeZone? = nil) {
        self.init(task: task, navigator: Navigator(task: task, timeZone: timeZone), texts: RichTextCache.build(for: task).cache)
    }

    init(task: SurveyTask, navigator: Navigator, texts: RichTextCache) {
        self.task = task
        self.navigator = navigator
        self.texts = texts
        languages = task.languages?.isEmpty == false ? task.languages! : ["en"]
    }

    /// What the PDF holds for a run whose consent is complete, else nil.
    public func spec(run: TaskRun, language: String, countersignature: ConsentStatus.Countersignature? = nil) -> PDFDocumentSpec? {
        guard let document = task.consentDocument, let consent = navigator.consent(in: run), consent.isComplete,
              let signedAt = consent.signedAt else { return nil }
        let timeZone = navigator.timeZone
        let catalog = Catalog(language: language)
        func plain(_ text: LocalizedText?) -> String? { texts.html(text, language: language, fallback: languages).map { PlainText.paragraphs($0.html) } }
        let title = plain(document.title) ?? task.identifier
        // The version and the run's identifier keep their own left-to-right order inside a
        // right-to-left line (a first-strong isolate, which the bidi algorithm leaves whole).
        func isolated(_ text: String) -> String { "\u{2068}" + text + "\u{2069}" }
        var blocks: [PDFBlock] = [.title(title), .paragraph(catalog["consentVersion"].replacingOccurrences(of: "%@", with: isolated(document.version)))]
        if let review = plain(document.reviewText) {
            blocks.append(.paragraph(review))
        } else {
            for section in document.sections {
                blocks.append(.heading(plain(section.title) ?? catalog["consentSection." + section.type.rawValue]))
                if let content = plain(section.content) ?? plain(section.summary) { blocks.append(.paragraph(content)) }
            }
        }
        blocks.append(.rule)
        if let reviewStep = task.step(consent.stepIdentifier), case .consentReview(let content) = reviewStep.kind {
            blocks.append(.paragraph(plain(content.reasonForConsent) ?? catalog["consentReason"]))
        }
        if let broadly = consent.sharesBroadly,
           let sharing = task.steps.first(where: { if case .consentSharing = $0.kind { true } else { false } }),
           case .consentSharing(let content) = sharing.kind {
            let short = plain(content.investigatorShortDescription) ?? ""
            blocks.append(.field(label: catalog["consentSharingChoice"],
                                 value: catalog[broadly ? "consentShareBroadly" : "consentShareStudyOnly"].replacingOccurrences(of: "%@", with: short)))
        }
        var strokes: [[PDFPoint]] = []
        if case .success(let drawing?) = SignatureDrawing.read(consent.drawing) {
            strokes = drawing.strokes.map { $0.map { PDFPoint(x: Double($0.x), y: Double($0.y)) } }
        }
        let participant = document.signature(consent.signature)
        blocks.append(.signature(SignatureBlock(
            title: plain(participant?.title) ?? catalog["consentSignatureHeading"],
            name: [consent.givenName, consent.familyName].compactMap { $0 }.joined(separator: " "),
            meaning: catalog["consentSignatureMeaning"], signedAt: catalog.moment(signedAt, timeZone), strokes: strokes)))
        if let countersignature, let staff = document.countersignature {
            blocks.append(.signature(SignatureBlock(
                title: plain(staff.title) ?? catalog["consentCountersignature"], name: countersignature.name,
                meaning: catalog["consentCountersignMeaning"], signedAt: catalog.moment(countersignature.signedAt, timeZone))))
        }
        let footer = catalog["consentFooter"].replacingOccurrences(of: "%1$@", with: title)
            .replacingOccurrences(of: "%2$@", with: isolated(document.version))
            .replacingOccurrences(of: "%3$@", with: isolated(run.taskRunUUID.uuidString.lowercased()))
        let pageLabel = catalog["pdfPage"].replacingOccurrences(of: "%1$@", with: "{page}").replacingOccurrences(of: "%2$@", with: "{pages}")
        return PDFDocumentSpec(title: title, language: language, isRightToLeft: Catalog.isRightToLeft(language), blocks: blocks,
                               footer: footer, pageLabel: pageLabel, createdAt: countersignature?.signedAt ?? consent.certifiedAt ?? signedAt)
    }
}
