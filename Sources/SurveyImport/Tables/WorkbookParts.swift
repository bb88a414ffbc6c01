import Foundation

/// A sheet as listed in `xl/workbook.xml`: its tab name and the relationship pointing at its part.
struct SheetEntry: Equatable {
    let name: String
    let relationshipID: String
}

/// One `<Relationship>` of a `.rels` part.
struct Relationship: Equatable {
    let type: String
    let target: String
    let isExternal: Bool
}

/// Readers for the small bookkeeping parts of a workbook, and part path arithmetic.
enum WorkbookParts {
    /// Where every XLSX writer puts the workbook part.
    static let workbookPath = "xl/workbook.xml"

    /// The sheets listed in the workbook's `<sheets>` element, in order.
    static func sheetList(_ xml: Data) throws(WorkbookError) -> [SheetEntry] {
        var sheets: [SheetEntry] = []
        try XMLStream.scan(xml, part: workbookPath) { (event, path) throws(WorkbookError) in
            guard case .start("sheet", let attributes) = event, path.last == "sheets" else { return }
            sheets.append(SheetEntry(name: attributes["name"] ?? "", relationshipID: attributes["id"] ?? ""))
        }
        return sheets
    }

    /// The relationships of a `.rels` part, keyed by their `Id`.
    static func relationships(_ xml: Data, part: String) throws(WorkbookError) -> [String: Relationship] {
        var result: [String: Relationship] = [:]
        try XMLStream.scan(xml, part: part) { (event, path) throws(WorkbookError) in
            guard case .start("Relationship", let attributes) = event, let id = attributes["Id"] else { return }
            result[id] = Relationship(
                type: attributes["Type"] ?? "",
                target: attributes["Target"] ?? "",
                isExternal: attributes["TargetMode"] == "External")
        }
        return result
    }

    /// The shared string table: one string per `<si>`, joining its `<t>` and rich-text `<r><t>` runs
    /// but leaving out phonetic guides (`<rPh>`).
    static func sharedStrings(_ xml: Data, part: String) throws(WorkbookError) -> [String] {
        var strings: [String] = []
        var current = ""
        try XMLStream.scan(xml, part: part) { (event, path) throws(WorkbookError) in
            switch event {
            case .start("si", _):
                current = ""
            case .end("si"):
                strings.append(current)
            case .text(let text) where path.last == "t" && path.contains("si") && !path.contains("rPh"):
                current += text
            default:
                break
            }
        }
        return strings
    }

    /// The `.rels` part describing the relationships of `part`, e.g. `xl/_rels/workbook.xml.rels`.
    static func relationshipsPath(for part: String) -> String {
        var segments = part.split(separator: "/").map(String.init)
        let file = segments.popLast() ?? ""
        return (segments + ["_rels", file + ".rels"]).joined(separator: "/")
    }

    /// The archive path of a relationship `target` found in the relationships of `source`.
    /// Absolute targets start at the archive root; relative ones start from the source's folder.
    static func resolve(_ target: String, from source: String) -> String {
        let decoded = target.removingPercentEncoding ?? target
        var segments = decoded.hasPrefix("/") ? [] : source.split(separator: "/").dropLast().map(String.init)
        for segment in decoded.split(separator: "/") {
            switch segment {
            case ".": continue
            case "..": _ = segments.popLast()
            default: segments.append(String(segment))
            }
        }
        return segments.joined(separator: "/")
    }
}
