import Foundation
import SurveyPDF
import Testing

/// An Arabic consent: shaped, right to left, and readable back in the order it was written.
///
/// pdftotext (poppler 22) gives right-to-left lines in logical order, with or without
/// `-layout`; it wraps each such line in U+202B … U+202C and each left-to-right run inside it
/// (digits, Latin, some punctuation) in U+202A … U+202C, so those marks are removed before
/// comparing. It also turns round the two letters of a lam-alef ligature (the PDF's
/// ActualText has them in order), so the words compared here have none.
@Suite("PDF: an Arabic document", .enabled(if: PDFTools.shouldRun, PDFTools.skipNote))
struct ArabicPDFTests {
    @Test("Arabic text comes back in logical order")
    func logicalOrder() throws {
        let pdf = try PDFMaker.make(SampleDocuments.arabic())
        #expect(try PDFTools.check(pdf).status == 0)
        let text = try PDFTools.text(pdf).withoutBidiMarks
        let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines.contains(SampleDocuments.arabicTitle))
        for word in ["الدراسة", "موافقة", "المشاركة", "طوعية", "فاطمة", "الزهراء"] {
            #expect(text.contains(word), "\(word)")
        }
        #expect(text.flattened.contains(SampleDocuments.arabicSentence))
        // The label's digits are a left-to-right run, which pdftotext spaces its own way.
        let pages = try PDFTools.pageCount(pdf)
        #expect(text.flattened.contains("صفحة"))
        #expect(text.contains("\(pages)"))
    }

    @Test("Right-to-left lines end at the right margin")
    func rightAligned() throws {
        let pdf = try PDFMaker.make(SampleDocuments.arabic())
        // Each line's box, in points from the page's left edge.
        let boxes = try PDFTools.text(pdf, ["-bbox-layout", "-f", "1", "-l", "1"])
        let lines = boxes.split(separator: "\n").filter { $0.contains("<line ") }
        func number(_ name: String, in line: Substring) -> Double? {
            guard let start = line.range(of: name + "=\"") else { return nil }
            return Double(line[start.upperBound...].prefix { $0 != "\"" })
        }
        let title = try #require(lines.first)
        let right = 595.28 - 56
        #expect(abs((number("xMax", in: title) ?? 0) - right) < 1)
        #expect((number("xMin", in: title) ?? 0) > 200, "the title starts on the right")
        // Every line on the right half ends at the right margin, or inside the signature's
        // frame at its padding; the page label alone is on the left.
        let ends = lines.compactMap { number("xMax", in: $0) }.filter { $0 > 300 }
        #expect(ends.count > 10)
        #expect(ends.allSatisfy { abs($0 - right) < 1.5 || abs($0 - (right - 10)) < 1.5 }, "\(ends)")
    }
}
