import Foundation
import SurveyPDF
import Testing

/// Where pages break: never after a heading, never inside a signature.
@Suite("PDF: page breaks", .enabled(if: PDFTools.shouldRun, PDFTools.skipNote))
struct PaginationTests {
    /// `count` one-line paragraphs, then a heading, a paragraph and a signature: as the count
    /// grows the heading and then the signature pass the bottom of the first page.
    static func spec(fillers count: Int) -> PDFDocumentSpec {
        var blocks = (1...count).map { PDFBlock.paragraph("Filler line \($0).") }
        blocks += [
            .heading("Kept heading"), .paragraph("First line under the heading."),
            .signature(SampleDocuments.participant()),
        ]
        return PDFDocumentSpec(title: "Breaks", blocks: blocks, createdAt: SampleDocuments.createdAt)
    }

    @Test("A heading starts the page of the text under it, and a signature is on one page", arguments: 20...40)
    func keptTogether(fillers: Int) throws {
        let pdf = try PDFMaker.make(Self.spec(fillers: fillers))
        let pages = try PDFTools.text(pdf).split(separator: "\u{0C}").map { String($0).flattened }
        let withHeading = pages.filter { $0.contains("Kept heading") }
        #expect(withHeading.count == 1)
        #expect(withHeading.first?.contains("Kept heading First line under the heading.") == true)
        let signature = ["Participant", "Ada Lovelace", "By typing my name", "4 March 2025, 10:15"]
        let withSignature = pages.filter { page in signature.contains { page.contains($0) } }
        #expect(withSignature.count == 1)
        #expect(signature.allSatisfy { withSignature.first?.contains($0) == true })
        #expect(pages.allSatisfy { !$0.isEmpty })
    }
}
