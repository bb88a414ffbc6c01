import Foundation
import SurveyAnalysis
import SurveyCore

/// Base R that reads the wide CSV exported with missing codes: each question column becomes
/// numbers, a factor (where its values have labels) or text, with why an answer is missing in
/// `attr(x, "missing")` and every column's label in `attr(x, "label")`.
struct RSyntax {
    let task: SurveyTask
    let codebook: Codebook

    var text: String {
        let columns = ExportSyntax.columns(of: codebook)
        let names = columns.map(\.entry.name)
        let unique = ExportSyntax.unique(names, key: { $0 }) { "\($0)_\($1)" }
        let overlapping = columns.filter(ExportSyntax.answersMayLookLikeCodes).map(\.entry.name)
        var lines = [
            "# Base R (no packages) that reads the wide CSV of the survey \(task.identifier), exported with missing codes:",
            "#   \(ExportSyntax.exportCommand(for: task))",
            "# Set csv_file to where the CSV is, then source this file as UTF-8, for example",
            "#   d <- source(\"\(task.identifier).R\", encoding = \"UTF-8\")$value",
            "# Question columns become numbers, factors (where their values have labels) or text; dates and times",
            "# stay text, in ISO 8601. A missing answer is NA, and attr(x, \"missing\") says why: not shown, skipped,",
            "# don't know or not reached (NA where there is an answer). attr(x, \"label\") is each column's label.",
        ] + ExportSyntax.wrap(overlapping, separator: ",", first: "# An answer equal to a code reads as missing in ", indent: "#   ")
        lines += ["", "csv_file <- \(Self.literal(ExportSyntax.csvFile(for: task)))", "",
                  #"d <- read.csv(csv_file, colClasses = "character", na.strings = "", check.names = FALSE,"#,
                  #"              encoding = "UTF-8", fileEncoding = "UTF-8")"#,
                  #"names(d)[1] <- sub("^\ufeff", "", names(d)[1])  # the byte order mark of --bom"#]
        lines += ExportSyntax.wrap(names.map(Self.literal), separator: ",", first: "columns <- c(", indent: "             ")
        lines[lines.count - 1] += ")"
        lines += ["if (!identical(names(d), columns)) {",
                  "  stop(csv_file, \" does not have the columns of the survey \", \(Self.literal(task.identifier)), \": export it again\")",
                  "}"]
        for (index, (name, fresh)) in zip(names, unique).enumerated() where name != fresh {
            lines.append("names(d)[\(index + 1)] <- \(Self.literal(fresh))  # the CSV has more than one column \(Self.literal(name))")
        }
        let codes = MissingReason.allCases.map { "\(Self.literal($0.label)) = \($0.code)" }.joined(separator: ", ")
        lines += ["", "missing_codes <- c(\(codes))", "", Self.functions]
        for (column, name) in zip(columns, unique) {
            let cell = "d[[\(Self.literal(name))]]", entry = column.entry
            guard column.isQuestion else {
                lines += ["number": ["\(cell) <- as.numeric(\(cell))"], "text": ["\(cell) <- unprotect(\(cell))"]][entry.storage.rawValue] ?? []
                continue
            }
            var arguments = [cell, Self.literal(entry.storage.rawValue)]
            let levels = Self.factorLevels(entry.values)
            if !levels.isEmpty {
                arguments += [levels.map(\.value), levels.map(\.label)].map { "c(\($0.map(Self.literal).joined(separator: ", ")))" }
            }
            let call = "\(cell) <- survey_column(\(arguments.joined(separator: ", ")))"
            lines.append(call.count <= 100 ? call : "\(cell) <- survey_column(\(arguments[0]), \(arguments[1]),\n  \(arguments[2]),\n  \(arguments[3]))")
        }
        lines += ["", "# Variable labels"]
        lines += zip(columns, unique).map { "attr(d[[\(Self.literal($1))]], \"label\") <- \(Self.literal($0.entry.label))" }
        return (lines + ["", "invisible(d)"]).joined(separator: "\n") + "\n"
    }

    /// The R every survey's syntax shares: taking off the formula protection, and reading one
    /// question column.
    static let functions = #"""
        # Takes off the ' that the export puts before text a spreadsheet would take for a formula: text that
        # begins, after any apostrophes, with = + - @, a tab or a carriage return (each compared as one code point).
        unprotect <- function(x) {
          first <- sub("(?s)^'+(.).*", "\\1", x, perl = TRUE)
          protected <- !is.na(x) & startsWith(x, "'") & first %in% c("=", "+", "-", "@", "\t", "\r")
          x[protected] <- substring(x[protected], 2)
          x
        }

        # One question column: the reason of each missing answer kept in attr(x, "missing") and its code
        # made NA; text without its formula protection; numbers as numbers; coded values as a factor.
        survey_column <- function(x, storage, values = NULL, labels = NULL) {
          column <- deparse(substitute(x))
          reason <- match(x, missing_codes)
          x[!is.na(reason)] <- NA
          if (storage == "text") x <- unprotect(x)
          if (!is.null(values)) {
            unknown <- setdiff(x[!is.na(x)], values)
            if (length(unknown) > 0) warning(column, " has values without a label: ", paste(unknown, collapse = ", "), call. = FALSE)
            x <- factor(x, levels = values, labels = labels)
          } else if (storage == "number") {
            x <- as.numeric(x)
          }
          attr(x, "missing") <- factor(names(missing_codes)[reason], levels = names(missing_codes))
          x
        }

        """#

    /// A factor's levels: each value once, labelled by its label, by the value where the label
    /// is empty, and with the value after it where values share a label (which R would merge).
    static func factorLevels(_ values: [(value: String, label: String)]) -> [(value: String, label: String)] {
        var seen = Set<String>()
        let levels = values.filter { seen.insert($0.value).inserted }.map { (value: $0.value, label: $0.label.isEmpty ? $0.value : $0.label) }
        return levels.map { level in levels.filter { $0.label == level.label }.count > 1 ? (level.value, "\(level.label) (\(level.value))") : level }
    }

    /// An R string literal: `\` and `"` escaped, control characters as escapes (NUL, which an R
    /// string cannot hold, left out), any other character as it is, in UTF-8.
    static func literal(_ text: String) -> String {
        let escapes: [Unicode.Scalar: String] = ["\\": #"\\"#, "\"": #"\""#, "\n": #"\n"#, "\r": #"\r"#, "\t": #"\t"#, "\0": ""]
        let body = text.unicodeScalars.map { scalar in
            escapes[scalar] ?? (scalar.value < 0x20 || scalar.value == 0x7F ? String(format: #"\x%02x"#, scalar.value) : String(scalar))
        }
        return "\"" + body.joined() + "\""
    }
}

// MARK: Shared by the R and SPSS syntax

/// A column of the wide CSV; the format and part are those of a question of the current version.
struct SyntaxColumn {
    let entry: CodebookEntry
    let format: AnswerFormat?
    let part: ExportColumn.Part?
    var isQuestion: Bool { entry.takesMissingCodes }
}

enum ExportSyntax {
    /// The missing codes, lowest to highest.
    static let codes = MissingReason.allCases.map(\.code).min()!...MissingReason.allCases.map(\.code).max()!

    /// The codebook's entries in the CSV's order, with formats where the current version has the column.
    static func columns(of codebook: Codebook) -> [SyntaxColumn] {
        let current = Dictionary(codebook.layout.columns.map { ($0.name, $0) }) { first, _ in first }
        return codebook.entries.enumerated().map { index, entry in
            let column = index < codebook.runEntries.count ? nil : current[entry.name]
            return SyntaxColumn(entry: entry, format: column?.format, part: column?.part)
        }
    }

    static func csvFile(for task: SurveyTask) -> String { "\(task.identifier).csv" }

    static func exportCommand(for task: SurveyTask) -> String {
        "survey export \(task.identifier) --format csv --missing-codes --output \(csvFile(for: task))"
    }

    /// The names in order, one whose `key` an earlier one took as the first free `suffixed(name, n)`, n = 2, 3…
    static func unique(_ names: [String], key: (String) -> String, suffixed: (String, Int) -> String) -> [String] {
        var taken = Set<String>()
        return names.map { name in
            var fresh = name, number = 1
            while !taken.insert(key(fresh)).inserted { (number, fresh) = (number + 1, suffixed(name, number + 1)) }
            return fresh
        }
    }

    /// Whether a number column's answers can take a code's value, so that such a cell reads as missing: a
    /// choice valued -92, a longitude, a range that reaches the codes, or (not known) an older version's column.
    /// Text cannot: the export puts an apostrophe before text that begins with `-`.
    static func answersMayLookLikeCodes(_ column: SyntaxColumn) -> Bool {
        let entry = column.entry, codes = Double(Self.codes.lowerBound)...Double(Self.codes.upperBound)
        guard column.isQuestion, entry.storage == .number else { return false }
        if !entry.values.isEmpty { return entry.values.contains { Double($0.value).map(codes.contains) ?? false } }
        let bounds = entry.range.components(separatedBy: "..").map { Double($0) }
        if bounds.count == 2 { return (bounds[0] ?? -.infinity) <= codes.upperBound && (bounds[1] ?? .infinity) >= codes.lowerBound }
        return column.part == .longitude || column.format.map { column.part == .answer && $0.range?.overlaps(codes) == true } ?? true
    }

    /// `items` on lines of at most 100 bytes where they fit, the first after `first`, the others
    /// after `indent`, each item but the last followed by `separator`.
    static func wrap(_ items: [String], separator: String = "", first: String, indent: String) -> [String] {
        var lines: [String] = []
        for (index, item) in items.enumerated() {
            let piece = index < items.count - 1 ? item + separator : item
            if let last = lines.last, (last + " " + piece).utf8.count <= 100 { lines[lines.count - 1] += " " + piece
            } else { lines.append((lines.isEmpty ? first : indent) + piece) }
        }
        return lines
    }
}
