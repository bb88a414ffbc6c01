import Foundation

/// One sheet of a workbook, as plain text cells.
///
/// `rows[i]` is spreadsheet row `i + 1` and `rows[i][j]` is column `j + 1` ("A" is 0).
/// Missing cells before the last filled one in a row are `""`; empty rows in between are `[]`.
/// Trailing empty cells and trailing empty rows are left out.
public struct Worksheet: Sendable, Equatable {
    /// The sheet's name as shown on its tab.
    public let name: String
    /// The cell texts, row by row.
    public let rows: [[String]]

    public init(name: String, rows: [[String]]) {
        self.name = name
        self.rows = rows
    }
}

/// Why a workbook could not be read, as a sentence meant for a person.
public struct WorkbookError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A plain-English explanation, e.g. "The file is not an XLSX workbook (it is not a ZIP archive)."
    public let message: String

    public var description: String { message }

    init(_ message: String) {
        self.message = message
    }
}

/// Reads the sheets of an XLSX workbook.
public enum Workbook {
    /// The most cells (counting blanks filled in before a cell) read from one workbook.
    static let maxCells = 1_000_000

    /// Reads every sheet of the XLSX file in `data`, in the order the workbook lists them.
    public static func sheets(from data: Data) throws(WorkbookError) -> [Worksheet] {
        let archive = try PartArchive(data: data)
        guard let workbookXML = try archive.read(WorkbookParts.workbookPath) else {
            throw .noWorkbook
        }
        let sheetList = try WorkbookParts.sheetList(workbookXML)
        let relsPath = WorkbookParts.relationshipsPath(for: WorkbookParts.workbookPath)
        let relationships = try archive.read(relsPath).map { (xml) throws(WorkbookError) in
            try WorkbookParts.relationships(xml, part: relsPath)
        } ?? [:]

        let sharedStrings = try readSharedStrings(archive, relationships: relationships)
        var budget = CellBudget(remaining: maxCells)
        var sheets: [Worksheet] = []
        for entry in sheetList {
            guard let relationship = relationships[entry.relationshipID], !relationship.isExternal else {
                throw .sheetMissing(entry.name)
            }
            let path = WorkbookParts.resolve(relationship.target, from: WorkbookParts.workbookPath)
            guard let xml = try archive.read(path) else { throw .sheetMissing(entry.name) }
            let rows = try SheetReader.rows(
                of: xml, part: path, sheet: entry.name, sharedStrings: sharedStrings, budget: &budget)
            sheets.append(Worksheet(name: entry.name, rows: rows))
        }
        return sheets
    }

    /// Reads the shared string table, found through the workbook relationships or at its usual path.
    private static func readSharedStrings(
        _ archive: PartArchive, relationships: [String: Relationship]
    ) throws(WorkbookError) -> [String] {
        let related = relationships.values.first { $0.type.hasSuffix("/sharedStrings") && !$0.isExternal }
        let path = related.map { WorkbookParts.resolve($0.target, from: WorkbookParts.workbookPath) }
            ?? "xl/sharedStrings.xml"
        guard let xml = try archive.read(path) else { return [] }
        return try WorkbookParts.sharedStrings(xml, part: path)
    }
}

/// The messages used for each kind of failure.
extension WorkbookError {
    static let notZip = WorkbookError("The file is not an XLSX workbook (it is not a ZIP archive).")
    static let noWorkbook = WorkbookError("The file is not an XLSX workbook (it has no xl/workbook.xml).")
    static let tooManyCells = WorkbookError(
        "The workbook has more than 1,000,000 cells, which is more than can be read.")

    static func tooLarge(_ part: String) -> WorkbookError {
        WorkbookError("The workbook part \(part) is larger than 50 MB when uncompressed, so it was not read.")
    }
    static func damaged(_ part: String) -> WorkbookError {
        WorkbookError("The workbook part \(part) could not be extracted; the file may be damaged.")
    }
    static func malformed(_ part: String) -> WorkbookError {
        WorkbookError("The workbook part \(part) is not well-formed XML; the file may be damaged.")
    }
    static func doctype(_ part: String) -> WorkbookError {
        WorkbookError("The workbook part \(part) contains a document type declaration, which XLSX files never need.")
    }
    static func sheetMissing(_ name: String) -> WorkbookError {
        WorkbookError("The workbook lists a sheet named \"\(name)\" but its contents are missing.")
    }
    static func badReference(_ reference: String, sheet: String) -> WorkbookError {
        WorkbookError("The sheet \"\(sheet)\" has a cell or row reference \"\(reference)\" that is not valid.")
    }
    static func badSharedString(_ index: String, sheet: String) -> WorkbookError {
        WorkbookError("The sheet \"\(sheet)\" refers to shared string \(index), which does not exist.")
    }
}
