import Foundation
import ZIPFoundation

/// Read-only access to the parts (files) inside a workbook's ZIP container.
///
/// Parts are looked up by path, ignoring case as the Open Packaging Conventions require,
/// and no part larger than ``maxPartSize`` is ever decompressed.
struct PartArchive {
    /// The largest uncompressed part that will be read (50 MB).
    static let maxPartSize = 50 * 1024 * 1024

    private let archive: Archive
    private let entries: [String: Entry]

    /// Opens the ZIP archive held in `data`.
    init(data: Data) throws(WorkbookError) {
        // ZIPFoundation 0.9.20 leaks a little memory when asked to open data that is not a ZIP,
        // so obvious non-ZIPs are turned away here first.
        guard Self.hasEndRecord(data) else { throw .notZip }
        do {
            archive = try Archive(data: data, accessMode: .read)
        } catch {
            throw .notZip
        }
        var entries: [String: Entry] = [:]
        for entry in archive where entry.type == .file {
            let key = entry.path.lowercased()
            if entries[key] == nil { entries[key] = entry }
        }
        self.entries = entries
    }

    /// The bytes of the part at `path`, or `nil` if the archive has no such part.
    func read(_ path: String) throws(WorkbookError) -> Data? {
        guard let entry = entries[path.lowercased()] else { return nil }
        // Check the declared size first, then the real one while inflating, in case the header lies.
        guard entry.uncompressedSize <= UInt64(Self.maxPartSize) else { throw .tooLarge(path) }
        var bytes = Data()
        bytes.reserveCapacity(Int(entry.uncompressedSize))
        do {
            _ = try archive.extract(entry) { chunk in
                guard bytes.count + chunk.count <= Self.maxPartSize else { throw SizeExceeded() }
                bytes.append(chunk)
            }
        } catch is SizeExceeded {
            throw .tooLarge(path)
        } catch {
            throw .damaged(path)
        }
        return bytes
    }

    /// Whether `data` contains a ZIP "end of central directory" signature (PK 5 6) that leaves room
    /// for the 22-byte record, which is what ZIPFoundation looks for.
    private static func hasEndRecord(_ data: Data) -> Bool {
        guard data.count >= 22 else { return false }
        let signature = Data([0x50, 0x4B, 0x05, 0x06])
        return data.prefix(data.count - 18).range(of: signature, options: .backwards) != nil
    }

    /// Thrown from inside the extraction callback to stop inflating an oversized part.
    private struct SizeExceeded: Error {}
}
