import Foundation
import JSON
import SurveyCore
import SurveyImport
import SurveyTestSupport
import Testing

/// The importers on damaged files: cells cut, swapped, emptied or filled with pieces of
/// expressions, every outcome a survey or findings, never a crash.
@Suite("Importers on damaged files")
struct ImportRobustnessTests {
    /// A small deterministic generator, so a failure comes back the same.
    struct Draws {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(max(bound, 1)))
        }
    }

    static let pieces = ["[", "]", "(", ")", "'", "\"", "${", "}", "and", "or", "<>", "=", "[a(1)]", "@HIDDEN", "@DEFAULT='",
                         "datediff(", "if(", ".", "..", "-", "1, A | 2", "|", ",", "select_one", "begin group", "end repeat",
                         "regex(., '(')", "9999999999999999999999", "-0", "", " ", "\u{0}", "ä", "NaN", "today()", "field-list"]

    static func damaged(_ rows: [[String]], seed: UInt64) -> [[String]] {
        var draws = Draws(state: seed)
        var rows = rows
        for _ in 0..<(1 + draws.next(6)) {
            let row = draws.next(rows.count)
            guard !rows[row].isEmpty else { continue }
            let column = draws.next(rows[row].count)
            switch draws.next(5) {
            case 0: rows[row][column] = ""
            case 1: rows[row][column] += pieces[draws.next(pieces.count)]
            case 2: rows[row][column] = String(rows[row][column].prefix(draws.next(rows[row][column].count + 1)))
            case 3: rows[row].swapAt(column, draws.next(rows[row].count))
            default: rows.swapAt(row, draws.next(rows.count))
            }
        }
        return rows
    }

    @Test("200 damaged copies of each REDCap dictionary give surveys or findings", arguments: REDCapRoundTripTests.corpusFiles())
    func dictionaries(file: String) throws {
        let rows = try CSVTable.rows(try Data(contentsOf: REDCapRoundTripTests.corpus.appendingPathComponent(file)))
        for seed in 0..<200 {
            let (surveys, diagnostics) = REDCapImport.surveys(rows: Self.damaged(rows, seed: UInt64(seed)))
            for survey in surveys { _ = SurveyLoader.diagnose(survey.survey) }
            #expect(!surveys.isEmpty || !diagnostics.isEmpty, "\(file), seed \(seed): neither a survey nor a finding")
        }
    }

    @Test("200 damaged copies of an XLSForm in CSV give a survey or findings")
    func forms() throws {
        let rows = try CSVTable.rows(householdForm)
        for seed in 0..<200 {
            let (surveys, diagnostics) = XLSFormImport.surveys(csvRows: Self.damaged(rows, seed: UInt64(seed)), name: "form")
            for survey in surveys { _ = SurveyLoader.diagnose(survey.survey) }
            #expect(!surveys.isEmpty || !diagnostics.isEmpty, "seed \(seed): neither a survey nor a finding")
        }
    }

    @Test("Damaged expressions are read or refused with a sentence")
    func expressions() throws {
        var draws = Draws(state: 7)
        for _ in 0..<2_000 {
            let source = (0..<(1 + draws.next(8))).map { _ in Self.pieces[draws.next(Self.pieces.count)] }.joined(separator: " ")
            for dialect in [ExpressionParser.Dialect.redcap, .xlsform] {
                do {
                    let expression = try ExpressionParser.parse(source, dialect)
                    let fields = Dictionary(expression.fields.map { ($0, ImportedField(selector: $0, linkIds: [$0], kind: .text)) }, uniquingKeysWith: { a, _ in a })
                    _ = try? ExpressionTranslator(fields: fields).predicate(expression)
                } catch {
                    #expect(!error.message.isEmpty)
                }
            }
        }
    }
}
