import Foundation
import SurveyPDF
import Testing

/// An English consent read back with pdftotext and checked with qpdf.
@Suite("PDF: an English document", .enabled(if: PDFTools.shouldRun, PDFTools.skipNote))
struct EnglishPDFTests {
    @Test("A consent of several pages is a valid PDF holding every part of it and numbered pages")
    func severalPages() throws {
        let pdf = try PDFMaker.make(SampleDocuments.english())
        let (status, report) = try PDFTools.check(pdf)
        #expect(status == 0, "qpdf --check: \(report)")
        let pages = try PDFTools.pageCount(pdf)
        #expect(pages >= 3)

        let raw = try PDFTools.text(pdf)
        let text = raw.flattened
        #expect(text.contains("Consent to take part in the study"))
        for heading in SampleDocuments.headings {
            #expect(text.contains(heading))
        }
        #expect(text.contains("Point 7.9: " + SampleDocuments.sentence))
        #expect(text.contains("Study: Sleep and mood in shift workers"))
        #expect(text.contains("Ada Lovelace"))
        #expect(text.contains("By typing my name I confirm that I have read the information and agree to take part."))
        #expect(text.contains("4 March 2025, 10:15"))

        // Each page (pdftotext ends each with a form feed) has the footer and its own label.
        let pageTexts = raw.split(separator: "\u{0C}", omittingEmptySubsequences: false).dropLast()
        #expect(pageTexts.count == pages)
        for (index, page) in pageTexts.enumerated() {
            #expect(page.contains(SampleDocuments.footer), "page \(index + 1)")
            #expect(String(page).flattened.contains("Page \(index + 1) of \(pages)"), "page \(index + 1)")
        }
        #expect(!text.contains("Page \(pages + 1) of"))
    }

    @Test("A paragraph of 200 sentences flows over several pages and loses none of them")
    func longParagraph() throws {
        let sentences = (1...200).map { "Sentence \($0) of the long paragraph ends here." }
        let spec = PDFDocumentSpec(
            title: "Long", blocks: [.heading("A long paragraph"), .paragraph(sentences.joined(separator: " "))],
            createdAt: SampleDocuments.createdAt)
        let pdf = try PDFMaker.make(spec)
        #expect(try PDFTools.check(pdf).status == 0)
        let pages = try PDFTools.pageCount(pdf)
        #expect(pages >= 3)
        // Without the page labels, a sentence cut by a page break reads as one again.
        var text = try PDFTools.text(pdf)
        for page in 1...pages {
            text = text.replacing("Page \(page) of \(pages)", with: "")
        }
        text = text.flattened
        let missing = sentences.filter { !text.contains($0) }
        #expect(missing.isEmpty, "missing: \(missing.prefix(5))")
    }

    @Test("A document without blocks is still a valid PDF of one page")
    func noBlocks() throws {
        let spec = PDFDocumentSpec(title: "Empty", blocks: [], footer: "nothing here", createdAt: SampleDocuments.createdAt)
        let pdf = try PDFMaker.make(spec)
        #expect(try PDFTools.check(pdf).status == 0)
        #expect(try PDFTools.pageCount(pdf) == 1)
        let text = try PDFTools.text(pdf).flattened
        #expect(text.contains("nothing here"))
        #expect(text.contains("Page 1 of 1"))
    }

    @Test("The page label is the caller's, with the page and the page count put in")
    func pageLabelFormat() throws {
        let spec = PDFDocumentSpec(
            title: "Label", blocks: [.paragraph("Short.")], pageLabel: "{page}/{pages} pp.",
            createdAt: SampleDocuments.createdAt)
        #expect(try PDFTools.text(try PDFMaker.make(spec)).flattened.contains("1/1 pp."))
    }

    @Test("A signature with strokes draws paths that one without strokes does not")
    func signatureStrokes() throws {
        let signed = try PDFMaker.make(SampleDocuments.english())
        let typedOnly = try PDFMaker.make(SampleDocuments.english(strokes: []))
        #expect(signed != typedOnly)
        // Cairo writes a path as "x y m x y l … S"; the scribble adds line segments.
        func lineSegments(_ pdf: [UInt8]) throws -> Int {
            try PDFTools.uncompressed(pdf).split(whereSeparator: { $0.isWhitespace }).count { $0 == "l" }
        }
        #expect(try lineSegments(signed) >= lineSegments(typedOnly) + 4)
        let text = try PDFTools.text(typedOnly).flattened
        #expect(text.contains("Participant Ada Lovelace"))
    }
}
