import Foundation

/// Counts cells across a whole workbook so a tiny file cannot expand into an enormous grid.
struct CellBudget {
    var remaining: Int

    /// Takes `count` cells from the budget, failing once it is used up.
    mutating func spend(_ count: Int) throws(WorkbookError) {
        remaining -= count
        if remaining < 0 { throw .tooManyCells }
    }
}

/// Turns a worksheet part into rows of text cells.
struct SheetReader {
    /// Excel's limits: 1,048,576 rows and 16,384 columns (A to XFD).
    static let maxRow = 1_048_576
    static let maxColumn = 16_384

    private let sheet: String
    private let sharedStrings: [String]
    private(set) var rows: [[String]] = []
    private var row = -1  // zero-based index of the current row
    private var column = -1  // zero-based index of the current cell's column
    private var type = ""  // the current cell's `t` attribute
    private var value = ""  // text of the current cell's `<v>`
    private var inline = ""  // text of the current cell's `<is>` inline string

    /// Reads the cells of the sheet part `xml`, spending one unit of `budget` per cell and per blank
    /// filled in before a cell.
    static func rows(
        of xml: Data, part: String, sheet: String, sharedStrings: [String], budget: inout CellBudget
    ) throws(WorkbookError) -> [[String]] {
        var reader = SheetReader(sheet: sheet, sharedStrings: sharedStrings)
        try XMLStream.scan(xml, part: part) { (event, path) throws(WorkbookError) in
            try reader.consume(event, path: path, budget: &budget)
        }
        return reader.rows
    }

    private init(sheet: String, sharedStrings: [String]) {
        self.sheet = sheet
        self.sharedStrings = sharedStrings
    }

    /// Updates the reader's state for one XML event.
    private mutating func consume(
        _ event: XMLEvent, path: [String], budget: inout CellBudget
    ) throws(WorkbookError) {
        switch event {
        case .start("row", let attributes) where path.last == "sheetData":
            row = try attributes["r"].map { (number) throws(WorkbookError) in try rowIndex(number) } ?? row + 1
            guard row < Self.maxRow else { throw .badReference(String(row + 1), sheet: sheet) }
            column = -1
        case .start("c", let attributes) where path.last == "row":
            try budget.spend(1)
            column = try attributes["r"].map { (ref) throws(WorkbookError) in try columnIndex(ref) } ?? column + 1
            guard column < Self.maxColumn else { throw .badReference("column \(column + 1)", sheet: sheet) }
            type = attributes["t"] ?? "n"
            value = ""
            inline = ""
        case .text(let text) where path.last == "v" && path.dropLast().last == "c":
            value += text
        case .text(let text) where path.last == "t" && path.contains("is") && !path.contains("rPh"):
            inline += text
        case .end("c") where path.last == "row":
            let text = try cellText()
            if !text.isEmpty { try place(text, budget: &budget) }
        default:
            break
        }
    }

    /// The text shown for the current cell, according to its type.
    private func cellText() throws(WorkbookError) -> String {
        switch type {
        case "s":
            let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
            guard let index = Int(trimmed), sharedStrings.indices.contains(index) else {
                throw .badSharedString(trimmed, sheet: sheet)
            }
            return sharedStrings[index]
        case "inlineStr": return inline
        case "b": return ["1": "TRUE", "0": "FALSE"][value.trimmingCharacters(in: .whitespaces)] ?? value
        case "n": return Self.displayNumber(value)
        default: return value  // "str" (formula text), "e" (error like #N/A), "d" (ISO date)
        }
    }

    /// Stores `text` at the current row and column, filling any gap before it with blanks.
    private mutating func place(_ text: String, budget: inout CellBudget) throws(WorkbookError) {
        if rows.count <= row {
            rows.append(contentsOf: repeatElement([], count: row + 1 - rows.count))
        }
        if rows[row].count <= column {
            let gap = column - rows[row].count
            try budget.spend(gap)
            rows[row].append(contentsOf: repeatElement("", count: gap + 1))
        }
        rows[row][column] = text
    }

    /// The zero-based row index for a row number such as "7".
    private func rowIndex(_ number: String) throws(WorkbookError) -> Int {
        guard let value = Int(number), value >= 1 else { throw .badReference(number, sheet: sheet) }
        return value - 1
    }

    /// The zero-based column index of a cell reference such as "C7" (2).
    private func columnIndex(_ reference: String) throws(WorkbookError) -> Int {
        let letters = reference.prefix { $0.isASCII && $0.isLetter }
        let digits = reference.dropFirst(letters.count)
        guard !letters.isEmpty, letters.count <= 3, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw .badReference(reference, sheet: sheet)
        }
        let number = letters.uppercased().unicodeScalars.reduce(0) { $0 * 26 + Int($1.value) - 64 }
        return number - 1
    }

    /// A number as written in the file, except that whole numbers lose any fraction or exponent
    /// ("1.0" and "1E3" become "1" and "1000").
    static func displayNumber(_ written: String) -> String {
        let text = written.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let number = Double(text), number.isFinite, number == number.rounded(), abs(number) < 1e15 else {
            return text
        }
        return String(Int64(number))
    }
}
