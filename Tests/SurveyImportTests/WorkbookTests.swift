import Foundation
import Testing
import SurveyImport

/// Loads a fixture workbook from the Fixtures folder next to this file.
/// The fixtures are made by Fixtures/xlsx/make_fixtures.py.
private func fixture(_ name: String) throws -> Data {
    let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures").appendingPathComponent("xlsx")
    return try Data(contentsOf: folder.appendingPathComponent(name))
}

/// Reads a fixture that must be refused and returns the error's message.
private func refusal(_ name: String) throws -> String? {
    let data = try fixture(name)
    return #expect(throws: WorkbookError.self) { try Workbook.sheets(from: data) }?.message
}

/// What both XLSForm fixtures must contain, whether their text is inline or shared.
private let expectedXLSForm = [
    Worksheet(name: "survey", rows: [
        ["type", "name", "label", "label::Arabic (ar)", "required", "hint"],
        ["text", "name", "Élève âgé ?", "ما اسمك؟", "TRUE"],
        [],
        ["integer", "age", "", "كم عمرك؟", "FALSE", "Whole years only"],
        ["decimal", "2.5", "1", "42", "  padded  "],
    ]),
    Worksheet(name: "choices", rows: [
        ["list_name", "name", "label"],
        ["yes_no", "yes", "Oui"],
        ["yes_no", "no", "Non"],
        [],
        ["colors", "red", "Rouge ❤"],
    ]),
    Worksheet(name: "settings", rows: [
        ["form_title", "form_id", "version"],
        ["Enquête", "survey_1", "2024010101"],
    ]),
]

@Test("An openpyxl workbook with inline strings reads cell by cell")
func openpyxlInlineStrings() throws {
    #expect(try Workbook.sheets(from: fixture("xlsform.xlsx")) == expectedXLSForm)
}

@Test("The same workbook with a shared string table reads the same")
func openpyxlSharedStrings() throws {
    #expect(try Workbook.sheets(from: fixture("xlsform_shared.xlsx")) == expectedXLSForm)
}

@Test("Sheet order, path forms and every cell type of a hand-written workbook")
func handmadeWorkbook() throws {
    let sheets = try Workbook.sheets(from: fixture("handmade.xlsx"))
    #expect(sheets.map(\.name) == ["Second", "First"])
    #expect(sheets[0].rows == [["first & only"]])
    #expect(sheets[1].rows == [
        [" lead", "", "Rich", "X", "#DIV/0!"],
        ["1", "3", "0.30000000000000004", "1000", "-2.50", "TRUE"],
        ["7", "", "a<b"],
        [],
        [],
        ["", "two runs"],
    ])
}

@Test("Input that is not a ZIP archive is refused")
func notZip() {
    let error = #expect(throws: WorkbookError.self) { try Workbook.sheets(from: Data("type,name\n".utf8)) }
    #expect(error?.message == "The file is not an XLSX workbook (it is not a ZIP archive).")
    #expect(error?.description == error?.message)
    #expect(throws: WorkbookError.self) { try Workbook.sheets(from: Data()) }
}

@Test("A ZIP archive without xl/workbook.xml is refused")
func noWorkbook() throws {
    #expect(try refusal("no_workbook.xlsx") == "The file is not an XLSX workbook (it has no xl/workbook.xml).")
}

@Test("A sheet that is not well-formed XML is refused")
func malformed() throws {
    #expect(try refusal("malformed.xlsx")?.contains("xl/worksheets/sheet1.xml is not well-formed XML") == true)
}

@Test("A part with a DTD and entities is refused without expanding them")
func doctype() throws {
    #expect(try refusal("doctype.xlsx")?.contains("document type declaration") == true)
}

@Test("A part over 50 MB uncompressed is refused")
func oversizedPart() throws {
    #expect(try refusal("big_part.xlsx")?.contains("larger than 50 MB") == true)
}

@Test("A part that inflates past 50 MB is stopped even when its header claims it is small")
func lyingPartSize() throws {
    #expect(try refusal("lying_size.xlsx")?.contains("larger than 50 MB") == true)
}

@Test("More than a million cells, counting filled-in gaps, is refused")
func tooManyCells() throws {
    #expect(try refusal("many_cells.xlsx")?.contains("more than 1,000,000 cells") == true)
}

@Test("Reading is safe from several tasks at once")
func concurrentReads() async throws {
    let data = try fixture("xlsform_shared.xlsx")
    let results = try await withThrowingTaskGroup(of: [Worksheet].self) { group in
        for _ in 0..<8 { group.addTask { try Workbook.sheets(from: data) } }
        return try await group.reduce(into: []) { $0.append($1) }
    }
    #expect(results.count == 8)
    #expect(results.allSatisfy { $0 == expectedXLSForm })
}
