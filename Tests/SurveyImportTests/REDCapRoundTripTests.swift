import Foundation
import JSON
import SurveyCore
import SurveyImport
import SurveyTestSupport
import Testing

/// The public dictionaries of Tests/Fixtures/redcap-corpus (SOURCES.md there says where each
/// comes from), and the round trip of each instrument the importer accepts.
@Suite("REDCap dictionaries: the corpus and the round trip")
struct REDCapRoundTripTests {
    static let corpus = Repository.root.appendingPathComponent("Tests/Fixtures/redcap-corpus")

    static func corpusFiles() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: corpus.path)) ?? []).filter { $0.hasSuffix(".csv") }.sorted()
    }

    /// Each instrument of the corpus that does not import as it is, with words its first error holds.
    static let refused: [String: String] = [
        "01-redcapr-validation-types.csv/form_1": "A file upload field",
        "04-cypress-draft-mode-field-types.csv/data_types": "A signature field",
        "05-phpcap-longitudinal-api-header.csv/demographics": "A file upload field",
        "10-redcapapi-all-types-checkbox-branching.csv/files_notes_descriptions": "A file upload field",
        "13-cypress-default-today-now-action-tags.csv/data_types": "A signature field",
        "13-cypress-default-today-now-action-tags.csv/consent": "A signature field",
        "16-redcapr-api-header-r-na-cells.csv/health": "A file upload field",
    ]

    /// The cells the importer reads, as a comparison sees them: trimmed, R's NA blank, choices spaced alike.
    static func comparable(_ row: [String]) -> [String] {
        (0..<18).map { index in
            var cell = index < row.count ? row[index].trimmingCharacters(in: .whitespacesAndNewlines) : ""
            if cell == "NA" && index != 4 { cell = "" }
            if index == 5, cell.contains("|") {
                cell = cell.split(separator: "|").map { part -> String in
                    let piece = part.trimmingCharacters(in: .whitespaces)
                    guard let comma = piece.firstIndex(of: ",") else { return piece }
                    return piece[..<comma].trimmingCharacters(in: .whitespaces) + ", " + piece[piece.index(after: comma)...].trimmingCharacters(in: .whitespaces)
                }.joined(separator: " | ")
            }
            return cell
        }
    }

    @Test("Every instrument of the corpus imports, or is refused as the table says", arguments: corpusFiles())
    func acceptance(file: String) throws {
        let rows = try CSVTable.rows(try Data(contentsOf: Self.corpus.appendingPathComponent(file)))
        let instruments = try REDCapDictionary(rows: rows).instruments
        for instrument in instruments {
            let (surveys, diagnostics) = REDCapImport.surveys(rows: rows, instrument: instrument)
            let key = "\(file)/\(instrument)"
            let loads = surveys.first.map { SurveyLoader.diagnose($0.survey).task != nil } ?? false
            if let words = Self.refused[key] {
                #expect(!loads, "\(key) was expected to be refused")
                #expect(diagnostics.first(where: \.isError)?.message.contains(words) == true, "\(key): \(diagnostics.filter(\.isError).first?.message ?? "no error")")
            } else if surveys.isEmpty, diagnostics.allSatisfy({ !$0.isError }) {
                // An instrument holding only the record's identifier makes no survey, and says so.
                #expect(diagnostics.contains { $0.message.contains("holds only the record's identifier") }, "\(key)")
            } else {
                #expect(loads, "\(key): \(diagnostics.filter(\.isError).map(\.message))")
            }
        }
    }

    @Test("Import then export gives the dictionary's rows back, instrument by instrument", arguments: corpusFiles())
    func roundTrip(file: String) throws {
        let rows = try CSVTable.rows(try Data(contentsOf: Self.corpus.appendingPathComponent(file)))
        let dictionary = try REDCapDictionary(rows: rows)
        for instrument in dictionary.instruments where Self.refused["\(file)/\(instrument)"] == nil {
            guard let imported = REDCapImport.surveys(rows: rows, instrument: instrument).surveys.first,
                  let task = SurveyLoader.diagnose(imported.survey).task else { continue }
            let (exported, _) = REDCapExport.dictionary(task)
            var written = Array(exported.dropFirst())
            let first = dictionary.fields.first?[.formName] == instrument
            // The record's field is written first in every instrument; it came from the first only,
            // and a library instrument that had none is given REDCap's default.
            if !first || dictionary.recordField == nil { written.removeFirst() }
            let original = rows.dropFirst().filter { row in row.count > 1 && row[1].trimmingCharacters(in: .whitespaces) == instrument }
            #expect(written.count == original.count, "\(file)/\(instrument): \(written.count) rows written, \(original.count) read")
            for (read, back) in zip(original, written) {
                let expected = Self.comparable(read), got = Self.comparable(back)
                for column in 0..<18 where column != 1 && expected[column] != got[column] {
                    Issue.record("\(file)/\(instrument) \(read.first ?? ""): column \(column) was \"\(expected[column])\", is \"\(got[column])\"")
                }
            }
        }
    }

    @Test("Every example exported as a dictionary imports back and exports the same rows", arguments: Repository.exampleNames())
    func examples(name: String) throws {
        let task = try SurveyLoader.load(try Data(contentsOf: Repository.examples.appendingPathComponent(name))).task
        let (first, _) = REDCapExport.dictionary(task)
        let (surveys, diagnostics) = REDCapImport.surveys(rows: try CSVTable.rows(CSVTable.text(first)))
        guard let imported = surveys.first else {
            // A survey of consent steps only has no field REDCap could hold.
            #expect(first.count == 2 && diagnostics.contains { $0.message.contains("only the record's identifier") }, "\(name): \(diagnostics)")
            return
        }
        let again = try #require(SurveyLoader.diagnose(imported.survey).task, "\(name): \(SurveyLoader.diagnose(imported.survey).diagnostics)")
        let (second, _) = REDCapExport.dictionary(again)
        #expect(second == first)
    }
}
