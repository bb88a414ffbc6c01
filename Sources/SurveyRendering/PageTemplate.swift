import Foundation
import SurveyCore

/// A page rendered once, with its per-request parts left as slots.
public struct PageTemplate: Sendable {
    public enum Segment: Sendable {
        case literal(String)
        case slot(Slot)
    }

    public let segments: [Segment]
    /// What goes before the title on a page with errors, in the page's language ("Error: ").
    let errorPrefix: String

    /// Splits rendered text at the slot markers the view models put in it.
    init(rendered: String, slots: [Slot], errorPrefix: String) {
        self.errorPrefix = errorPrefix
        var segments: [Segment] = []
        var literal = ""
        var scalars = rendered.unicodeScalars[...]
        while let start = scalars.firstIndex(of: SlotMarker.open) {
            literal.unicodeScalars.append(contentsOf: scalars[..<start])
            let afterOpen = scalars.index(after: start)
            guard let end = scalars[afterOpen...].firstIndex(of: SlotMarker.close),
                  let index = Int(String(String.UnicodeScalarView(scalars[afterOpen..<end]))), slots.indices.contains(index) else {
                literal.unicodeScalars.append(scalars[start])
                scalars = scalars[afterOpen...]
                continue
            }
            if !literal.isEmpty {
                segments.append(.literal(literal))
                literal = ""
            }
            segments.append(.slot(slots[index]))
            scalars = scalars[scalars.index(after: end)...]
        }
        literal.unicodeScalars.append(contentsOf: scalars)
        if !literal.isEmpty { segments.append(.literal(literal)) }
        self.segments = segments
    }

    /// The page for one request: slots filled, hidden items left out, shuffled choices in the
    /// run's order, in one buffer.
    public func render(_ fill: PageFill) -> String {
        var output = ""
        output.reserveCapacity(segments.reduce(0) { total, segment in
            if case .literal(let text) = segment { return total + text.utf8.count }
            return total
        } + 256)
        var skipping = 0
        emit(segments.indices, fill, into: &output, skipping: &skipping)
        return output
    }

    private func emit(_ range: Range<Int>, _ fill: PageFill, into output: inout String, skipping: inout Int) {
        var position = range.lowerBound
        while position < range.upperBound {
            let segment = segments[position]
            if skipping == 0, case .slot(.orderedItem(let list, _)) = segment, fill.orders[list] != nil || fill.hiddenChoices[list] != nil {
                // A shuffled or filtered list: its items, each up to its end marker, in the run's order, but those hidden.
                let order = fill.orders[list] ?? []
                let hidden = fill.hiddenChoices[list] ?? []
                // The items in their written order, each its index and its segments.
                var items: [(index: Int, segments: Range<Int>)] = []
                var cursor = position
                while cursor < range.upperBound, case .slot(.orderedItem(let other, let index)) = segments[cursor], other == list,
                      let end = segments[cursor..<range.upperBound].firstIndex(where: {
                          if case .slot(.orderedItemEnd) = $0 { return true }
                          return false
                      }) {
                    items.append((index, (cursor + 1)..<end))
                    cursor = end + 1
                }
                if order.isEmpty {
                    for item in items where !hidden.contains(item.index) { emit(item.segments, fill, into: &output, skipping: &skipping) }
                } else {
                    var byIndex: [Int: Range<Int>] = [:]
                    for item in items { byIndex[item.index] = item.segments }
                    // The run's order, then any item it does not know (the survey gained a choice since).
                    for index in order + items.map(\.index).filter({ !order.contains($0) }) where !hidden.contains(index) {
                        if let item = byIndex[index] { emit(item, fill, into: &output, skipping: &skipping) }
                    }
                }
                position = cursor
                continue
            }
            switch segment {
            case .literal(let text):
                if skipping == 0 { output += text }
            case .slot(.itemStart(let identifier)):
                if skipping > 0 || fill.hiddenItems.contains(identifier) { skipping += 1 }
            case .slot(.backStart):
                if skipping > 0 || !fill.canGoBack { skipping += 1 }
            case .slot(.itemEnd), .slot(.backEnd):
                if skipping > 0 { skipping -= 1 }
            case .slot(.titlePrefix):
                if skipping == 0, !fill.issues.isEmpty { output += errorPrefix }
            case .slot(let slot):
                if skipping == 0 { fill.append(slot, to: &output) }
            }
            position += 1
        }
    }
}

/// The markers a view model writes where a slot goes: private-use characters that HTML
/// escaping leaves alone and no survey text can contain after sanitizing.
enum SlotMarker {
    static let open: Unicode.Scalar = "\u{E000}"
    static let close: Unicode.Scalar = "\u{E001}"
}

/// Collects the slots of one page while its view model is built.
final class SlotTable {
    private(set) var slots: [Slot] = []

    func marker(_ slot: Slot) -> String {
        slots.append(slot)
        return "\u{E000}\(slots.count - 1)\u{E001}"
    }
}
