import Foundation

/// A comma-separated file read as rows of cells (RFC 4180): quoted cells may hold commas, line
/// breaks and doubled quotes; a byte-order mark is dropped; lines end in CRLF, LF or CR.
public enum CSVTable {
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// The rows of `data`, each its cells as text; row `i` of the result is line `i + 1` of a
    /// file without line breaks in its cells.
    public static func rows(_ data: Data) throws(Failure) -> [[String]] {
        guard var text = String(data: data, encoding: .utf8) ?? String(data: data, encoding: .windowsCP1252) else {
            throw Failure(description: "The file is not text.")
        }
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        return try rows(text)
    }

    public static func rows(_ text: String) throws(Failure) -> [[String]] {
        var rows: [[String]] = []
        var row: [String] = []
        var cell = String.UnicodeScalarView()
        var quoted = false
        var wasQuoted = false
        var scalars = text.unicodeScalars.makeIterator()
        var pending: Unicode.Scalar? = nil
        var line = 1
        func next() -> Unicode.Scalar? {
            if let held = pending {
                pending = nil
                return held
            }
            return scalars.next()
        }
        func endCell() {
            row.append(String(cell))
            cell = String.UnicodeScalarView()
            wasQuoted = false
        }
        while let scalar = next() {
            if quoted {
                if scalar == "\"" {
                    let following = next()
                    if following == "\"" {
                        cell.append("\"")
                    } else {
                        quoted = false
                        pending = following
                    }
                } else {
                    if scalar == "\n" { line += 1 }
                    cell.append(scalar)
                }
                continue
            }
            switch scalar {
            case "\"" where cell.isEmpty && !wasQuoted:
                quoted = true
                wasQuoted = true
            case ",":
                endCell()
            case "\r", "\n":
                if scalar == "\r" {
                    let following = next()
                    if following != "\n" { pending = following }
                }
                endCell()
                rows.append(row)
                row = []
                line += 1
            default:
                cell.append(scalar)
            }
        }
        if quoted { throw Failure(description: "A quoted cell that starts on line \(line) is never closed.") }
        if !cell.isEmpty || !row.isEmpty {
            endCell()
            rows.append(row)
        }
        return rows
    }

    /// The rows written back as CSV: a cell is quoted when it holds a comma, a quote or a line break.
    public static func text(_ rows: [[String]]) -> String {
        rows.map { row in
            row.map { cell in
                guard cell.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return cell }
                return "\"" + cell.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            }.joined(separator: ",")
        }.joined(separator: "\n") + "\n"
    }
}
