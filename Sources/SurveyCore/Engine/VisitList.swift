import Foundation
import JSON

/// The visits of a run, in order: an array kept in chunks of `chunkSize`.
///
/// A run is a value, and every answer edits the stored one: with a plain array each edit
/// copies every visit of the run (and later frees the old copy), so an answer late in a long
/// survey costs more than an early one. Here a chunk is shared until it changes, so an edit
/// copies the list of chunks and the one or two chunks it touches, whatever the run's length.
///
/// Every chunk but the last is full.
public struct VisitList: Sendable, Hashable, RandomAccessCollection, MutableCollection, RangeReplaceableCollection,
    ExpressibleByArrayLiteral {
    public static let chunkSize = 32

    /// Visits that are never changed once made: an edit makes a new chunk.
    final class Chunk: Sendable {
        let visits: [StepVisit]

        init(_ visits: [StepVisit]) {
            self.visits = visits
        }
    }

    private var chunks: [Chunk] = []
    public private(set) var count = 0

    public init() {}

    public init(arrayLiteral elements: StepVisit...) {
        self.init(elements)
    }

    public init<S: Sequence>(_ elements: S) where S.Element == StepVisit {
        append(contentsOf: elements)
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    public subscript(position: Int) -> StepVisit {
        get {
            precondition(position >= 0 && position < count, "Visit index out of range")
            return chunks[position / Self.chunkSize].visits[position % Self.chunkSize]
        }
        set {
            precondition(position >= 0 && position < count, "Visit index out of range")
            let chunk = position / Self.chunkSize
            var visits = chunks[chunk].visits
            visits[position % Self.chunkSize] = newValue
            chunks[chunk] = Chunk(visits)
        }
    }

    public mutating func replaceSubrange<C: Collection>(_ subrange: Range<Int>, with newElements: C) where C.Element == StepVisit {
        precondition(subrange.lowerBound >= 0 && subrange.upperBound <= count, "Visit range out of bounds")
        // Chunks before the one holding the first changed position stay as they are; the rest
        // is rebuilt from the kept visits around the new ones.
        let firstChunk = subrange.lowerBound / Self.chunkSize
        let keptStart = firstChunk * Self.chunkSize
        var tail: [StepVisit] = []
        tail.reserveCapacity(count - keptStart - subrange.count + newElements.count)
        for position in keptStart..<subrange.lowerBound { tail.append(self[position]) }
        tail.append(contentsOf: newElements)
        for position in subrange.upperBound..<count { tail.append(self[position]) }
        chunks.removeSubrange(firstChunk...)
        var start = 0
        while start < tail.count {
            let end = Swift.min(start + Self.chunkSize, tail.count)
            chunks.append(Chunk(Array(tail[start..<end])))
            start = end
        }
        count = keptStart + tail.count
    }

    /// The first position at which the two lists differ (the shorter one's count when one
    /// begins the other). Chunks the two lists share are passed over without a look inside.
    public func firstDifference(from other: VisitList) -> Int {
        let common = Swift.min(count, other.count)
        var position = 0
        for chunk in chunks.indices where chunk < other.chunks.count {
            if chunks[chunk] === other.chunks[chunk], (chunk + 1) * Self.chunkSize <= common {
                position = (chunk + 1) * Self.chunkSize
                continue
            }
            break
        }
        while position < common, self[position] == other[position] { position += 1 }
        return position
    }

    public static func == (lhs: VisitList, rhs: VisitList) -> Bool {
        lhs.count == rhs.count && lhs.firstDifference(from: rhs) == lhs.count
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for visit in self { hasher.combine(visit) }
    }
}

extension VisitList: Codable {
    /// Coded as a plain array of visits.
    public init(from decoder: any Decoder) throws {
        self.init(try [StepVisit](from: decoder))
    }

    public func encode(to encoder: any Encoder) throws {
        try Array(self).encode(to: encoder)
    }
}
