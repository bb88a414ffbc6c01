import Foundation
import SurveyAnalysis
import SurveyCore

/// SPSS syntax that reads the wide CSV exported with missing codes: the columns under valid
/// SPSS names, with variable labels, value labels (the missing codes' too) and the codes
/// declared missing.
struct SPSSSyntax {
    let task: SurveyTask
    let codebook: Codebook

    var text: String {
        let columns = ExportSyntax.columns(of: codebook)
        let named = zip(columns, Self.names(columns.map(\.entry.name))).map { (column: $0, name: $1) }
        let strings = named.filter { $0.column.isQuestion && $0.column.entry.storage != .number }
        let numbers = named.filter { $0.column.isQuestion && $0.column.entry.storage == .number }
        var lines = ["* Encoding: UTF-8.", ""] + comments(named, strings: strings).map {
            "* " + $0.components(separatedBy: .controlCharacters).joined(separator: " ")
        }
        if !lines[lines.count - 1].hasSuffix(".") { lines[lines.count - 1] += "." }
        lines += ["", "GET DATA", "  /TYPE=TXT", "  /FILE=\(Self.literal(ExportSyntax.csvFile(for: task)))", "  /ENCODING='UTF8'",
                  "  /DELCASE=LINE", "  /DELIMITERS=\",\"", "  /QUALIFIER='\"'", "  /ARRANGEMENT=DELIMITED", "  /FIRSTCASE=2", "  /VARIABLES="]
        lines += named.map { "    \($0.name) \(Self.format($0.column))" }
        lines[lines.count - 1] += "."
        lines += ["", "VARIABLE LABELS"] + named.enumerated().map { index, item in
            "  \(index == 0 ? "" : "/")\(item.name) \(Self.literal(item.column.entry.label, limit: 256))"
        }
        lines[lines.count - 1] += "."
        let labelled = named.filter { $0.column.isQuestion || !$0.column.entry.values.isEmpty }
        if !labelled.isEmpty {
            lines += ["", "VALUE LABELS"]
            for (index, item) in labelled.enumerated() {
                let isNumber = item.column.entry.storage == .number
                // String values as the CSV has them, with the apostrophe of formula protection; codes without.
                var pairs = item.column.entry.values.map {
                    "\(isNumber ? $0.value : Self.literal(CSV.protected($0.value))) \(Self.literal($0.label, limit: 120))"
                }
                if item.column.isQuestion {
                    pairs += MissingReason.allCases.map { "\(isNumber ? "\($0.code)" : "\"\($0.code)\"") \(Self.literal($0.label))" }
                }
                lines += ExportSyntax.wrap([item.name] + pairs, first: index == 0 ? "  " : "  /", indent: "    ")
            }
            lines[lines.count - 1] += "."
        }
        if !numbers.isEmpty || !strings.isEmpty {
            let range = "(\(ExportSyntax.codes.lowerBound) THRU \(ExportSyntax.codes.upperBound))"
            let codes = "(" + Self.declared.map { "\"\($0.code)\"" }.joined(separator: ", ") + ")"
            lines += ["", "MISSING VALUES"]
            if !numbers.isEmpty { lines += ExportSyntax.wrap(numbers.map(\.name) + [range], first: "  ", indent: "    ") }
            if !strings.isEmpty { lines += ExportSyntax.wrap(strings.map(\.name) + [codes], first: numbers.isEmpty ? "  " : "  /", indent: "    ") }
            lines[lines.count - 1] += "."
        }
        return (lines + ["", "EXECUTE."]).joined(separator: "\n") + "\n"
    }

    /// The missing codes declared for a string variable, which takes at most three.
    static let declared = [MissingReason.notShown, .skipped, .notReached]

    /// What the syntax reads, what it renamed, and where a code stays a valid value or an answer
    /// reads as missing.
    private func comments(_ named: [(column: SyntaxColumn, name: String)], strings: [(column: SyntaxColumn, name: String)]) -> [String] {
        var comments = [
            "SPSS syntax that reads the wide CSV of the survey \(task.identifier), exported with missing codes:",
            "  \(ExportSyntax.exportCommand(for: task))",
            "Set FILE below to the full path of the CSV: SPSS looks for a bare name in its working folder.",
        ]
        if named.contains(where: { if case .text(let format)? = $0.column.format { format.multipleLines == true } else { false } }) {
            comments.append("GET DATA reads a line as a case: a text answer with a line break in it splits its case in two.")
        }
        let renamed = named.filter { $0.column.entry.name != $0.name }.map { "\($0.column.entry.name) -> \($0.name)" }
        comments += ExportSyntax.wrap(renamed, separator: ",", first: "SPSS names of the columns: ", indent: "  ")
        comments.append("Text keeps the ' the export puts before text a spreadsheet would take for a formula: a typed -91 is '-91.")
        if !strings.isEmpty {
            let dontKnow = MissingReason.dontKnow
            let declared = Self.declared.map { "\($0.code)" }.joined(separator: ", ")
            comments.append("A string variable takes at most three missing values: \(declared) are declared;")
            let undeclared = strings.filter { $0.column.format?.showsDontKnow ?? true }.map(\.name)
            comments += undeclared.isEmpty ? ["  no string variable here offers \(dontKnow.code) (\(dontKnow.label))."]
                : ExportSyntax.wrap(undeclared, first: "  \(dontKnow.code) (\(dontKnow.label)) stays a valid value, labelled, in ", indent: "  ")
        }
        let overlapping = named.filter { ExportSyntax.answersMayLookLikeCodes($0.column) }.map(\.name)
        let codes = ExportSyntax.codes
        comments += ExportSyntax.wrap(overlapping, first: "Answers from \(codes.lowerBound) to \(codes.upperBound) read as missing too in ", indent: "  ")
        return comments
    }

    /// SPSS's reserved words, which no variable may be named.
    static let reserved: Set<String> = ["ALL", "AND", "BY", "EQ", "GE", "GT", "LE", "LT", "NE", "NOT", "OR", "TO", "WITH"]

    /// A valid SPSS name for each column, unique without regard to case: characters other than
    /// ASCII letters, digits, `_`, `.`, `@`, `#` and `$` become `_`; `v_` goes in front of a
    /// name that does not begin with a letter or is a reserved word; a name is cut to 64 bytes
    /// and loses any `.` and `_` at its end; a name taken before gets `_2`, `_3`…
    static func names(_ columns: [String]) -> [String] {
        let trimmed = { (name: Substring) in name.replacingOccurrences(of: "[._]+$", with: "", options: .regularExpression) }
        let valid = columns.map { column -> String in
            var name = String(String.UnicodeScalarView(column.unicodeScalars.map { scalar in
                scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "_.@#$".unicodeScalars.contains(scalar)) ? scalar : "_"
            }))
            if !(name.unicodeScalars.first.map { $0.isASCII && CharacterSet.letters.contains($0) } ?? false) || reserved.contains(name.uppercased()) {
                name = "v_" + name
            }
            return trimmed(name.prefix(64))
        }
        return ExportSyntax.unique(valid, key: { $0.uppercased() }) { trimmed($0.prefix(64 - "_\($1)".count)) + "_\($1)" }
    }

    /// The column's format in GET DATA. Delimited data have no implied decimals, so the decimals
    /// only set how many are shown.
    static func format(_ column: SyntaxColumn) -> String {
        let entry = column.entry
        switch entry.storage {
        case .date: return "A32"
        case .text:
            if !entry.values.isEmpty { return "A\(max(8, entry.values.map { CSV.protected($0.value).utf8.count }.max() ?? 0))" }
            if !column.isQuestion { return ["run_id": "A36", "status": "A16", "survey_version": "A64"][entry.name] ?? "A1024" }
            // At most 3 bytes of UTF-8 for each UTF-16 unit the limit counts, and the apostrophe.
            guard case .text(let text)? = column.format, let limit = text.lengthLimit else { return "A32767" }
            return "A\(min(32767, max(8, 3 * limit + 1)))"
        case .number:
            if !entry.values.isEmpty {
                return "F8.\(entry.values.map { $0.value.split(separator: ".").dropFirst().first?.count ?? 0 }.max() ?? 0)"
            }
            if !column.isQuestion { return "F12.3" }
            switch column.part {
            case .latitude?, .longitude?: return "F12.6"
            case .answer?, .choice?, .other?, .component?, nil: break
            }
            switch column.format {
            case .numeric(let numeric)?: return "F12.\(numeric.effectiveStyle == .integer ? 0 : min(numeric.maximumFractionDigits ?? 2, 6))"
            // A percent scale stores a fraction (60 % is 0.6): two decimals more than the participant types.
            case .continuousScale(let scale)?: return "F12.\(min(scale.fractionDigits + (scale.isPercent ? 2 : 0), 6))"
            case .scale?, .ses?, .age?, .timeInterval?: return "F12.0"
            case nil, .boolean?, .textChoice?, .valuePicker?, .multipleValuePicker?, .imageChoice?, .textScale?, .timeOfDay?,
                 .date?, .text?, .email?, .height?, .weight?, .location?:
                return "F12.2"
            }
        }
    }

    /// A quoted SPSS string: `"` doubled, control characters as spaces, cut to `limit` bytes (what
    /// SPSS keeps of a label), in pieces joined by `+` on lines of their own, so that no line
    /// reaches SPSS's limit of 250 bytes.
    static func literal(_ text: String, limit: Int = 32767) -> String {
        var pieces = [""], bytes = 0
        for character in text {
            let kept = character.unicodeScalars.contains { $0.properties.generalCategory == .control } ? " " : String(character)
            bytes += kept.utf8.count
            if bytes > limit { break }
            let escaped = kept.replacingOccurrences(of: "\"", with: "\"\"")
            if pieces[pieces.count - 1].utf8.count + escaped.utf8.count > 100 { pieces.append("") }
            pieces[pieces.count - 1] += escaped
        }
        return pieces.map { "\"\($0)\"" }.joined(separator: " +\n      ")
    }
}
