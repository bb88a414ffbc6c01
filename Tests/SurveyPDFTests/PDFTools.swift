import Foundation
import Testing

/// pdftotext (poppler-utils) and qpdf, run as programs to read back what SurveyPDF wrote.
/// Tests that need them are skipped when they are not on PATH; `REQUIRE_PDF_TOOLS=1` makes
/// their absence a failure instead.
enum PDFTools {
    static let pdftotext = find("pdftotext")
    static let qpdf = find("qpdf")
    static let required = !(ProcessInfo.processInfo.environment["REQUIRE_PDF_TOOLS"] ?? "").isEmpty
        && ProcessInfo.processInfo.environment["REQUIRE_PDF_TOOLS"] != "0"
    /// Run the test when the tools are there, or when their absence must fail it.
    static let shouldRun = (pdftotext != nil && qpdf != nil) || required
    static let skipNote: Comment = "needs pdftotext (poppler-utils) and qpdf on PATH; REQUIRE_PDF_TOOLS=1 fails without them"

    /// The text pdftotext reads from `pdf`, pages ending in a form feed, in logical order.
    static func text(_ pdf: [UInt8], _ options: [String] = []) throws -> String {
        let program = try #require(pdftotext, "pdftotext is not on PATH (Debian: poppler-utils)")
        return try withFile(pdf) { path in
            let out = path + ".txt"
            defer { try? FileManager.default.removeItem(atPath: out) }
            let (status, messages) = try run(program, options + ["-enc", "UTF-8", path, out])
            #expect(status == 0, "pdftotext failed: \(messages)")
            return try String(contentsOfFile: out, encoding: .utf8)
        }
    }

    /// qpdf's verdict on `pdf`: its exit status (0 when no errors or warnings) and report.
    static func check(_ pdf: [UInt8]) throws -> (status: Int32, report: String) {
        let program = try #require(qpdf, "qpdf is not on PATH (Debian: qpdf)")
        return try withFile(pdf) { try run(program, ["--check", $0]) }
    }

    /// How many pages qpdf counts.
    static func pageCount(_ pdf: [UInt8]) throws -> Int {
        let program = try #require(qpdf, "qpdf is not on PATH (Debian: qpdf)")
        let (_, output) = try withFile(pdf) { try run(program, ["--show-npages", $0]) }
        return try #require(Int(output.trimmingCharacters(in: .whitespacesAndNewlines)), "qpdf said \(output)")
    }

    /// The PDF rewritten by qpdf with every stream uncompressed, so page content can be read.
    static func uncompressed(_ pdf: [UInt8]) throws -> String {
        let program = try #require(qpdf, "qpdf is not on PATH (Debian: qpdf)")
        return try withFile(pdf) { path in
            let out = path + ".qdf"
            defer { try? FileManager.default.removeItem(atPath: out) }
            let (status, messages) = try run(program, ["--qdf", "--object-streams=disable", path, out])
            #expect(status == 0, "qpdf --qdf failed: \(messages)")
            return String(decoding: try Data(contentsOf: URL(fileURLWithPath: out)), as: UTF8.self)
        }
    }

    private static func find(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    private static func withFile<T>(_ pdf: [UInt8], _ body: (String) throws -> T) throws -> T {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("surveypdf-\(UUID().uuidString).pdf").path
        try Data(pdf).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try body(path)
    }

    /// Runs a program to its end; its output and error output together.
    private static func run(_ program: String, _ arguments: [String]) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        // Read before waiting, so a full pipe cannot stop the program.
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }
}

extension String {
    /// The words with one space between them: pdftotext ends lines and pages where the
    /// layout did, which is not where the source text had spaces.
    var flattened: String {
        split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    /// Without the bidi embedding marks pdftotext puts around right-to-left lines and around
    /// the left-to-right runs inside them.
    var withoutBidiMarks: String {
        String(String.UnicodeScalarView(unicodeScalars.filter {
            !(0x202A...0x202E).contains($0.value) && !(0x2066...0x2069).contains($0.value)
        }))
    }
}
