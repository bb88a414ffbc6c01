import Foundation
import SurveyCore
import SurveyPDF

/// "Your answers" as a PDF, where a survey shows answers on completion: the same rows as the
/// answers page, drawn by the machinery of the signed consent copy, in the participant's language.
extension SurveyPages {
    public func answersCopy(run: TaskRun, language: String, context: AnswerContext) -> PDFDocumentSpec {
        let catalog = Catalog(language: language)
        let title = texts.plain(task.title, language: language, fallback: languages) ?? task.identifier
        var blocks: [PDFBlock] = [.title(title), .paragraph(catalog["yourAnswers"])]
        for row in answerRows(run.visits[...], of: run, excludeInstructions: true, changeLinks: nil, language: language, context: context) {
            guard let heading = row["title"] as? String, let answers = row["answers"] as? [[String: Any]], !answers.isEmpty else { continue }
            blocks.append(.heading(heading))
            for answer in answers {
                blocks.append(.field(label: answer["label"] as? String ?? "", value: answer["answer"] as? String ?? ""))
            }
        }
        let run = "\u{2068}" + run.taskRunUUID.uuidString.lowercased() + "\u{2069}"
        let pageLabel = catalog["pdfPage"].replacingOccurrences(of: "%1$@", with: "{page}").replacingOccurrences(of: "%2$@", with: "{pages}")
        return PDFDocumentSpec(title: title, language: language, isRightToLeft: Catalog.isRightToLeft(language), blocks: blocks,
                               footer: title + " · " + run, pageLabel: pageLabel, createdAt: context.now)
    }
}
