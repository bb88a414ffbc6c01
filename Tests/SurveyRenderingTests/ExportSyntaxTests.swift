import Foundation
import SurveyCore
import Testing
@testable import SurveyRendering

@Suite("Export syntax: R and SPSS files that read the wide CSV with labels and missing codes")
struct ExportSyntaxTests {
    static func r(_ task: SurveyTask) -> String { RSyntax(task: task, codebook: Codebook(task: task)).text }
    static func spss(_ task: SurveyTask) -> String { SPSSSyntax(task: task, codebook: Codebook(task: task)).text }

    static func survey(_ json: String) throws -> SurveyTask { try SurveyLoader.load(Data(json.utf8)).task }

    /// A survey whose question text and choices carry quotes, backslashes and accents.
    static let quoted = """
        {"identifier": "quoted", "steps": [
          {"identifier": "q", "type": "question", "title": "Say \\"hi\\" to C:\\\\temp — café",
           "answerFormat": {"type": "textChoice", "style": "singleChoice", "choices": [
             {"text": "Plus \\"+\\"", "value": "+"}, {"text": "Back\\\\slash", "value": "\\\\"}]}}
        ]}
        """

    /// Whether SPSS takes `name` for a variable: a letter first, then letters, digits and
    /// `_ . @ # $`, not ending in `.` or `_`, at most 64 bytes, not a reserved word.
    static func isValidSPSSName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.isASCII, CharacterSet.letters.contains(first),
              name.utf8.count <= 64, !name.hasSuffix("."), !name.hasSuffix("_"),
              !["ALL", "AND", "BY", "EQ", "GE", "GT", "LE", "LT", "NE", "NOT", "OR", "TO", "WITH"].contains(name.uppercased())
        else { return false }
        return name.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "_.@#$".unicodeScalars.contains($0)) }
    }

    @Test("R for fever-triage: the read, the codes, a factor for each coded column, numbers, dates and text, and every label")
    func rForFeverTriage() throws {
        let text = Self.r(try Files.task("Examples/fever-triage.json"))
        let lines = text.components(separatedBy: "\n")
        #expect(lines.contains("#   survey export fever-triage --format csv --missing-codes --output fever-triage.csv"))
        #expect(lines.contains(#"csv_file <- "fever-triage.csv""#))
        #expect(text.contains(#"""
            d <- read.csv(csv_file, colClasses = "character", na.strings = "", check.names = FALSE,
                          encoding = "UTF-8", fileEncoding = "UTF-8")
            names(d)[1] <- sub("^\ufeff", "", names(d)[1])
            """#))
        #expect(lines.contains(#"missing_codes <- c("not shown" = -91, "skipped" = -92, "don't know" = -93, "not reached" = -94)"#))
        #expect(lines.contains(#"d[["fever"]] <- survey_column(d[["fever"]], "number", c("1", "0"), c("Yes", "No"))"#))
        #expect(text.contains(#"""
            d[["danger-signs__none"]] <- survey_column(d[["danger-signs__none"]], "number",
              c("1", "0"),
              c("ticked", "not ticked"))
            """#))
        #expect(lines.contains(#"d[["temperature.celsius"]] <- survey_column(d[["temperature.celsius"]], "number")"#))
        #expect(lines.contains(#"d[["temperature.since"]] <- survey_column(d[["temperature.since"]], "date")"#))
        #expect(lines.contains(#"d[["other-symptoms"]] <- survey_column(d[["other-symptoms"]], "text")"#))
        #expect(lines.contains(#"d[["duration_seconds"]] <- as.numeric(d[["duration_seconds"]])"#))
        #expect(lines.contains(#"d[["participant_id"]] <- unprotect(d[["participant_id"]])"#))
        #expect(lines.contains(#"attr(d[["fever"]], "label") <- "Do you have a fever?""#))
        #expect(lines.contains(#"attr(d[["danger-signs__rash"]], "label") <- "Do you have any of these? — A rash that does not fade under a glass""#))
        for entry in Codebook(task: try Files.task("Examples/fever-triage.json")).entries {
            #expect(lines.contains("attr(d[[\(RSyntax.literal(entry.name))]], \"label\") <- \(RSyntax.literal(entry.label))"), "\(entry.name)")
        }
        #expect(lines.last(where: { !$0.isEmpty }) == "invisible(d)")
    }

    @Test("SPSS for fever-triage: GET DATA, variable labels, value labels with the codes', and the missing values")
    func spssForFeverTriage() throws {
        let text = Self.spss(try Files.task("Examples/fever-triage.json"))
        let lines = text.components(separatedBy: "\n")
        #expect(text.contains("""
            GET DATA
              /TYPE=TXT
              /FILE="fever-triage.csv"
              /ENCODING='UTF8'
              /DELCASE=LINE
              /DELIMITERS=","
              /QUALIFIER='"'
              /ARRANGEMENT=DELIMITED
              /FIRSTCASE=2
              /VARIABLES=
                run_id A36
            """))
        #expect(lines.contains("    fever F8.0") && lines.contains("    temperature.celsius F12.1") && lines.contains("    temperature.since A32"))
        #expect(lines.contains("    danger_signs__none F8.0") && lines.contains("    other_symptoms A901."))
        #expect(lines.contains(#"  /fever "Do you have a fever?""#))
        #expect(lines.contains(#"  /other_symptoms "What other symptoms do you have?"."#))
        #expect(lines.contains(#"  fever 1 "Yes" 0 "No" -91 "not shown" -92 "skipped" -93 "don't know" -94 "not reached""#))
        #expect(text.contains(#"  /danger_signs__rash 1 "ticked" 0 "not ticked" -91 "not shown" -92 "skipped" -93 "don't know""#))
        #expect(lines.contains(#"  /other_symptoms "-91" "not shown" "-92" "skipped" "-93" "don't know" "-94" "not reached"."#))
        #expect(text.contains("""
            MISSING VALUES
              fever temperature.celsius danger_signs__stiff_neck danger_signs__rash danger_signs__breathing
                danger_signs__none (-94 THRU -91)
              /temperature.since other_symptoms ("-91", "-92", "-94").

            EXECUTE.

            """))
        #expect(text.contains("* SPSS names of the columns: danger-signs__stiff-neck -> danger_signs__stiff_neck,"))
        #expect(lines.allSatisfy { $0.utf8.count < 250 })
    }

    /// Every survey in Examples/, whatever is added there, and the format fixtures.
    static func surveys() -> [String] {
        let examples = (try? FileManager.default.contentsOfDirectory(atPath: Files.root.appendingPathComponent("Examples").path)) ?? []
        return examples.filter { $0.hasSuffix(".json") }.sorted().map { "Examples/\($0)" } + Files.surveys().filter { !$0.hasPrefix("Examples/") }
    }

    @Test("SPSS names are valid and unique for every example and format fixture", arguments: surveys())
    func spssNamesOfEverySurvey(_ path: String) throws {
        let columns = Codebook(task: try Files.task(path)).entries.map(\.name)
        let names = SPSSSyntax.names(columns)
        #expect(names.allSatisfy(Self.isValidSPSSName), "\(names.filter { !Self.isValidSPSSName($0) })")
        #expect(Set(names.map { $0.uppercased() }).count == names.count)
        #expect(SPSSSyntax.names(columns) == names)
    }

    @Test("SPSS names stay valid and unique for awkward column names, also thousands of random ones")
    func spssNamesOfAwkwardColumns() {
        let awkward = ["to", "With", "1st", "_x", ".x", "x.", "x_", "a-b", "a_b", "A_B", "a b", "café", "ö", "", "q__a,b",
                       String(repeating: "long-", count: 20), String(repeating: "long-", count: 20) + "x", "v_1st", "x_2", "x", "X"]
        var random = SeededGenerator(seed: 7)
        let alphabet = Array("aZ9_.-@#$ éß\"'\\,€")
        let generated = (0..<3000).map { _ in String((0..<Int.random(in: 1...70, using: &random)).map { _ in alphabet.randomElement(using: &random)! }) }
        for columns in [awkward, generated] {
            let names = SPSSSyntax.names(columns)
            #expect(names.count == columns.count)
            #expect(names.allSatisfy(Self.isValidSPSSName), "\(names.filter { !Self.isValidSPSSName($0) }.prefix(5))")
            #expect(Set(names.map { $0.uppercased() }).count == names.count)
        }
        #expect(SPSSSyntax.names(["to", "a-b", "a_b", "A_B", "x.", "1st"]) == ["v_to", "a_b", "a_b_2", "A_B_3", "x", "v_1st"])
    }

    @Test("R string literals escape backslashes, quotes and control characters, and keep other characters")
    func rLiterals() throws {
        #expect(RSyntax.literal(#"Say "hi" to C:\temp"#) == #""Say \"hi\" to C:\\temp""#)
        #expect(RSyntax.literal("one\ntwo\r\tthree\u{7}\u{0}é — 日本") == #""one\ntwo\r\tthree\x07é — 日本""#)
        let text = Self.r(try Self.survey(Self.quoted))
        #expect(text.contains(#"attr(d[["q"]], "label") <- "Say \"hi\" to C:\\temp — café""#))
        #expect(text.contains(#"c("+", "\\"), c("Plus \"+\"", "Back\\slash")"#))
    }

    @Test("SPSS string literals double quotes, keep backslashes, and split long labels with + on short lines")
    func spssLiterals() throws {
        let text = Self.spss(try Self.survey(Self.quoted))
        #expect(text.contains(#"  /q "Say ""hi"" to C:\temp — café""#))
        #expect(text.contains(#"  q "'+" "Plus ""+""" "\" "Back\slash" "-91" "not shown""#))
        let long = String(repeating: "A \"long\" label. ", count: 40)
        let literal = SPSSSyntax.literal(long, limit: 256)
        #expect(literal.components(separatedBy: "\n").allSatisfy { $0.utf8.count < 120 })
        let joined = literal.components(separatedBy: " +\n      ").map { String($0.dropFirst().dropLast()) }.joined()
        #expect(joined.replacingOccurrences(of: "\"\"", with: "\"") == String(long.utf8.prefix(256))!)
    }

    @Test("Columns that share a name are told apart in R, and the read checks the CSV has the survey's columns")
    func sharedNames() throws {
        let task = try Self.survey("""
            {"identifier": "dup", "steps": [
              {"identifier": "a.b", "type": "question", "answerFormat": {"type": "boolean"}},
              {"identifier": "a", "type": "form", "items": [{"identifier": "b", "answerFormat": {"type": "boolean"}}]}
            ]}
            """)
        let text = Self.r(task)
        // The layout already names the second one apart, so the R file has nothing to rename.
        #expect(!text.contains("the CSV has more than one column"))
        #expect(text.contains(#"attr(d[["a.b_2"]], "label")"#))
        #expect(text.contains(#"if (!identical(names(d), columns)) {"#))
        #expect(Self.spss(task).contains("    a.b_2 F8.0"))
    }

    @Test("Columns only an older version had are read too: as text, numbers or factors, labelled and declared missing")
    func olderVersionColumns() throws {
        let old = try Files.task("Examples/wellbeing-check.json")
        let text = try String(contentsOf: Files.root.appendingPathComponent("Examples/wellbeing-check.json"), encoding: .utf8)
        let edited = try Self.survey(text.replacingOccurrences(of: "\"comments\"", with: "\"notes\"")
            .replacingOccurrences(of: "\"mood\"", with: "\"feeling\""))
        let book = Codebook(task: edited, older: [(old.version, old)])
        #expect(Array(book.entries.suffix(2).map(\.name)) == ["mood", "comments"])
        let r = RSyntax(task: edited, codebook: book).text
        #expect(r.contains(#"d[["comments"]] <- survey_column(d[["comments"]], "text")"#))
        #expect(r.contains(#"d[["mood"]] <- survey_column(d[["mood"]], "number")"#))
        #expect(r.contains(#"attr(d[["comments"]], "label") <- "Is there anything else you would like to tell us?""#))
        let spss = SPSSSyntax(task: edited, codebook: book).text
        #expect(spss.contains("    mood F12.2\n    comments A32767."))
        #expect(spss.contains(#"  /comments "Is there anything else you would like to tell us?"."#))
        #expect(spss.contains(" notes comments (\"-91\", \"-92\", \"-94\")."))
        #expect(spss.contains("feeling sleep") && spss.contains(" mood (-94 THRU -91)"))
    }

    @Test("A survey without questions reads its run columns alone")
    func noQuestions() throws {
        let task = try Self.survey(#"{"identifier": "hello", "steps": [{"identifier": "hi", "type": "instruction", "title": "Hi"}]}"#)
        let spss = Self.spss(task)
        #expect(!spss.contains("VALUE LABELS") && !spss.contains("MISSING VALUES") && !spss.contains("string variable"))
        #expect(spss.contains("    duration_seconds F12.3.\n\nVARIABLE LABELS\n"))
        #expect(!Self.r(task).contains("survey_column(d"))
    }

    @Test("Where answers can look like codes, both files say so; string variables that offer don't know are named")
    func codeLikeAnswers() throws {
        let task = try Files.task("Examples/every-format.json")
        #expect(Self.r(task).contains("# An answer equal to a code reads as missing in hometown__longitude"))
        let spss = Self.spss(task)
        #expect(spss.contains("* Answers from -94 to -91 read as missing too in hometown__longitude."))
        #expect(spss.contains("-93 (don't know) stays a valid value, labelled, in last_painkiller"))
        #expect(spss.contains(#"  /blood_group__2 "'+" "Rhesus positive (+)" "'-" "Rhesus negative (−)" "-91" "not shown""#))
    }
}

/// SplitMix64 from a fixed seed, so that a failing random case comes back on the next run.
private struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
