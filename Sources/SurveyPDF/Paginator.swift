/// Where one piece of a flow item goes on a page, in points from the page's top.
enum Placement {
    case lines(TextBox, Range<Int>, top: Double)
    case rule(y: Double)
    case signature(SignatureBox, top: Double)
}

/// Cuts measured items into pages between `top` and `bottom`: text between two lines, a
/// signature or rule never. Nothing is dropped: what does not fit goes on the next page, and
/// something taller than a page is placed on one of its own and overflows.
struct Paginator {
    private let top: Double
    private let bottom: Double
    private var pages: [[Placement]] = []
    private var current: [Placement] = []
    private var y: Double
    private var spaceAfterPrevious = 0.0

    /// The pages, at least one (empty when there are no items).
    static func pages(of items: [FlowItem], top: Double, bottom: Double) -> [[Placement]] {
        var paginator = Paginator(top: top, bottom: bottom)
        for index in items.indices {
            paginator.place(items, at: index)
        }
        if !paginator.current.isEmpty || paginator.pages.isEmpty {
            paginator.pages.append(paginator.current)
        }
        return paginator.pages
    }

    private init(top: Double, bottom: Double) {
        self.top = top
        self.bottom = bottom
        y = top
    }

    private mutating func place(_ items: [FlowItem], at index: Int) {
        let item = items[index]
        var gap = current.isEmpty ? 0 : spaceAfterPrevious + item.spaceBefore
        if !current.isEmpty && y + gap + FlowItem.lead(of: items, at: index, limit: bottom - top) > bottom {
            newPage()
            gap = 0
        }
        y += gap
        switch item.content {
        case .text(let box):
            place(box)
        case .rule:
            current.append(.rule(y: y + PDFStyle.ruleHeight / 2))
            y += PDFStyle.ruleHeight
        case .signature(let box):
            current.append(.signature(box, top: y))
            y += box.height
        }
        spaceAfterPrevious = item.spaceAfter
    }

    /// Places a box's lines from `y` on, going on to the next page before the first line that
    /// does not fit.
    private mutating func place(_ box: TextBox) {
        let lines = box.lines
        var start = 0
        var startTop = y
        var index = 0
        while index < lines.count {
            let lineBottom = startTop + lines[index].bottom - lines[start].top
            guard lineBottom > bottom && (index > start || !current.isEmpty) else {
                index += 1
                continue
            }
            var cut = index
            // The last line of a paragraph does not start a page alone when three can move.
            if cut == lines.count - 1 && cut - start >= 3 { cut -= 1 }
            if cut > start { current.append(.lines(box, start..<cut, top: startTop)) }
            newPage()
            start = cut
            startTop = y
            index = cut
        }
        if start < lines.count {
            current.append(.lines(box, start..<lines.count, top: startTop))
            y = startTop + box.height(of: start..<lines.count)
        }
    }

    private mutating func newPage() {
        pages.append(current)
        current = []
        y = top
    }
}
