import Foundation
import SurveyPDF

/// Documents the tests make, in the shape of the study consents the presenter prints.
enum SampleDocuments {
    static let createdAt = Date(timeIntervalSince1970: 1_741_083_300)  // 2025-03-04T10:15:00Z
    static let footer = "Consent v2.1 · run 3f2a…"
    static let headings = (1...7).map { "Section \($0): what taking part involves" }
    static let sentence = "Taking part is voluntary and you may stop at any time without giving a reason."
    static let scribble = [
        [PDFPoint(x: 10, y: 150), PDFPoint(x: 100, y: 40), PDFPoint(x: 200, y: 160), PDFPoint(x: 590, y: 30)],
        [PDFPoint(x: 300, y: 100)],
    ]

    static func participant(strokes: [[PDFPoint]] = scribble) -> SignatureBlock {
        SignatureBlock(
            title: "Participant", name: "Ada Lovelace",
            meaning: "By typing my name I confirm that I have read the information and agree to take part.",
            signedAt: "4 March 2025, 10:15", strokes: strokes)
    }

    /// An English consent of several pages: a title, fields, headed sections and a signature.
    static func english(strokes: [[PDFPoint]] = scribble) -> PDFDocumentSpec {
        var blocks: [PDFBlock] = [
            .title("Consent to take part in the study"),
            .field(label: "Study", value: "Sleep and mood in shift workers"),
            .field(label: "Version", value: "2.1"),
            .rule,
        ]
        for (number, heading) in headings.enumerated() {
            blocks.append(.heading(heading))
            let paragraph = (1...9).map { "Point \(number + 1).\($0): " + sentence }.joined(separator: " ")
            blocks.append(.paragraph(paragraph + "\n\n" + paragraph))
        }
        blocks.append(.signature(participant(strokes: strokes)))
        return PDFDocumentSpec(
            title: "Consent to take part", language: "en", blocks: blocks,
            footer: footer, createdAt: createdAt)
    }

    static let arabicTitle = "موافقة على المشاركة في الدراسة"
    static let arabicSentence = "المشاركة في هذه الدراسة طوعية ويمكنك التوقف في أي وقت."

    /// The same kind of consent in Arabic, right to left.
    static func arabic() -> PDFDocumentSpec {
        var blocks: [PDFBlock] = [
            .title(arabicTitle),
            .field(label: "الدراسة", value: "النوم والمزاج"),
        ]
        for section in 1...3 {
            blocks.append(.heading("القسم \(section)"))
            blocks.append(.paragraph(Array(repeating: arabicSentence, count: 12).joined(separator: " ")))
        }
        blocks.append(.signature(SignatureBlock(
            title: "المشارك", name: "فاطمة الزهراء", meaning: "بكتابة اسمي أؤكد أنني قرأت المعلومات.",
            signedAt: "2025-03-04 10:15", strokes: scribble)))
        return PDFDocumentSpec(
            title: arabicTitle, language: "ar", isRightToLeft: true, blocks: blocks,
            footer: "الإصدار 2.1", pageLabel: "صفحة {page} من {pages}", createdAt: createdAt)
    }
}
