/// A block measured and ready to be placed: what it draws, the space around it (dropped at
/// the top of a page) and whether it must start on the same page as the item after it.
struct FlowItem {
    enum Content {
        case text(TextBox)
        case rule
        case signature(SignatureBox)
    }

    let content: Content
    let spaceBefore: Double
    let spaceAfter: Double
    /// A title or heading is never the last thing on a page.
    let keepWithNext: Bool

    /// The height that must fit before the item starts: all of an item kept with the next
    /// (and then the next one's start), else the first two lines of text, or the whole of an
    /// item that cannot be split. Stops adding once past `limit`, a page's height.
    static func lead(of items: [FlowItem], at index: Int, limit: Double) -> Double {
        var height = 0.0
        for (offset, item) in items[index...].enumerated() {
            switch item.content {
            case .text(let box):
                height += item.keepWithNext ? box.height : box.height(of: 0..<min(2, box.lines.count))
            case .rule:
                height += PDFStyle.ruleHeight
            case .signature(let box):
                height += box.height
            }
            let next = index + offset + 1
            guard item.keepWithNext, next < items.count, height <= limit else { break }
            height += item.spaceAfter + items[next].spaceBefore
        }
        return height
    }
}

extension Typesetter {
    /// Measures the blocks at the width of the text area.
    func flow(_ blocks: [PDFBlock]) -> [FlowItem] {
        let width = PDFStyle.contentWidth
        var items: [FlowItem] = []
        for block in blocks {
            switch block {
            case .title(let text):
                guard !text.allSatisfy(\.isWhitespace) else { continue }
                items.append(FlowItem(
                    content: .text(box(text, font: .title, width: width, lineSpacing: 1.1)),
                    spaceBefore: PDFStyle.spaceBeforeTitle, spaceAfter: 6, keepWithNext: true))
            case .heading(let text):
                guard !text.allSatisfy(\.isWhitespace) else { continue }
                items.append(FlowItem(
                    content: .text(box(text, font: .heading, width: width, lineSpacing: 1.1)),
                    spaceBefore: PDFStyle.spaceBeforeHeading, spaceAfter: 0, keepWithNext: true))
            case .paragraph(let text):
                // Each paragraph is a box of its own, so the space between them is ours to set.
                for paragraph in text.split(separator: "\n\n") where !paragraph.allSatisfy(\.isWhitespace) {
                    let body = box(Self.trimmingNewlines(paragraph), font: .body, width: width, lineSpacing: PDFStyle.bodyLineSpacing)
                    items.append(FlowItem(
                        content: .text(body), spaceBefore: PDFStyle.spaceBeforeParagraph, spaceAfter: 0, keepWithNext: false))
                }
            case .field(let label, let value):
                let prefix = label + ": "
                let line = box(prefix + value, font: .body, width: width,
                               lineSpacing: PDFStyle.bodyLineSpacing, boldBytes: Typesetter.withoutNUL(prefix).utf8.count)
                items.append(FlowItem(
                    content: .text(line), spaceBefore: PDFStyle.spaceBeforeField, spaceAfter: 0, keepWithNext: false))
            case .signature(let signature):
                items.append(FlowItem(
                    content: .signature(SignatureBox(signature, typesetter: self)),
                    spaceBefore: PDFStyle.spaceBeforeSignature, spaceAfter: 0, keepWithNext: false))
            case .rule:
                items.append(FlowItem(content: .rule, spaceBefore: 4, spaceAfter: 4, keepWithNext: false))
            }
        }
        return items
    }

    /// A paragraph without the line breaks at its ends, left by three or more in a row.
    private static func trimmingNewlines(_ text: Substring) -> String {
        var text = text
        while text.first?.isNewline == true { text.removeFirst() }
        while text.last?.isNewline == true { text.removeLast() }
        return String(text)
    }
}
