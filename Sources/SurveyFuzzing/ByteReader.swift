import Foundation
import SurveyCore

/// Reads choices from the bytes of an input, and zeros once they run out.
public struct ByteReader {
    private var bytes: ArraySlice<UInt8>
    public init(_ bytes: [UInt8]) { self.bytes = bytes[...] }

    public var isEmpty: Bool { bytes.isEmpty }
    public mutating func byte() -> UInt8 { bytes.popFirst() ?? 0 }
    /// A number in 0..<count (count > 0).
    public mutating func index(_ count: Int) -> Int { Int(byte()) % max(count, 1) }
    public mutating func int() -> Int { Int(Int16(bitPattern: UInt16(byte()) << 8 | UInt16(byte()))) }
}
