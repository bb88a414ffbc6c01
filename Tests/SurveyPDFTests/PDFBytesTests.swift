import Foundation
import SurveyPDF
import Testing

/// What the bytes themselves promise, without any tool to read them.
@Suite("PDF: bytes")
struct PDFBytesTests {
    @Test("The same spec gives the same bytes")
    func sameBytes() throws {
        let first = try PDFMaker.make(SampleDocuments.english())
        #expect(first.starts(with: Array("%PDF-".utf8)))
        #expect(try PDFMaker.make(SampleDocuments.english()) == first)
        let arabic = try PDFMaker.make(SampleDocuments.arabic())
        #expect(try PDFMaker.make(SampleDocuments.arabic()) == arabic)
    }

    @Test("The creation date is the spec's, in UTC, whatever the time of making")
    func creationDate() throws {
        var spec = SampleDocuments.english()
        let text = String(decoding: try PDFMaker.make(spec), as: UTF8.self)
        #expect(text.contains("/CreationDate (") && text.contains("20250304101500Z)"))
        spec.createdAt = Date(timeIntervalSince1970: -1.5)
        let before1970 = String(decoding: try PDFMaker.make(spec), as: UTF8.self)
        #expect(before1970.contains("19691231235958Z)"))
        spec.createdAt = Date(timeIntervalSince1970: 951_825_600)  // a leap day
        #expect(String(decoding: try PDFMaker.make(spec), as: UTF8.self).contains("20000229120000Z)"))
    }

    @Test("Calls on several threads at once give the bytes of a call on its own")
    func concurrentCalls() async throws {
        let specs = [SampleDocuments.english(), SampleDocuments.arabic()]
        let alone = try specs.map { try PDFMaker.make($0) }
        try await withThrowingTaskGroup(of: (Int, [UInt8]).self) { group in
            for round in 0..<16 {
                group.addTask { (round % 2, try PDFMaker.make(specs[round % 2])) }
            }
            for try await (index, bytes) in group {
                #expect(bytes == alone[index])
            }
        }
    }

    @Test("Text with NUL characters, odd strokes and empty strings still makes a PDF")
    func oddInput() throws {
        let strokes = [
            [PDFPoint(x: .nan, y: 10), PDFPoint(x: 1e12, y: -1e12), PDFPoint(x: .infinity, y: 0)],
            [],
            [PDFPoint(x: 5, y: 5)],
        ]
        let spec = PDFDocumentSpec(
            title: "nul\u{0}title", blocks: [
                .title(""), .heading("  "), .paragraph("\n\n\n\nbefore\u{0}after\n\n\n"),
                .field(label: "", value: ""), .field(label: "a\u{0}b", value: "c"),
                .signature(SignatureBlock(title: "", name: "", meaning: "", signedAt: "", strokes: strokes)),
                .rule, .rule,
            ],
            footer: "", pageLabel: "", createdAt: Date(timeIntervalSince1970: .infinity))
        let pdf = try PDFMaker.make(spec)
        #expect(pdf.starts(with: Array("%PDF-".utf8)))
        #expect(String(decoding: pdf.suffix(8), as: UTF8.self).contains("%%EOF"))
    }
}
