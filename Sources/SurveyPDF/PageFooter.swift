import CPangoCairo

/// The small grey text at the bottom of every page: the footer text where lines start, the
/// page label where they end.
struct PageFooter {
    private let text: TextBox
    private let typesetter: Typesetter
    private let spec: PDFDocumentSpec
    /// The room the footer takes above the bottom margin.
    let height: Double

    private static let gap = 12.0
    private static let labelWidth = PDFStyle.contentWidth * 0.3
    private static let textWidth = PDFStyle.contentWidth - labelWidth - gap

    init(_ spec: PDFDocumentSpec, typesetter: Typesetter) {
        self.spec = spec
        self.typesetter = typesetter
        text = typesetter.box(spec.footer, font: .footer, width: Self.textWidth)
        // The page count is not known yet: three digits stand in for it.
        let sample = Self.label(spec.pageLabel(page: 888, of: 888), typesetter: typesetter)
        height = max(text.height, sample.height)
    }

    func draw(page: Int, of pages: Int, on cr: OpaquePointer) {
        let top = PDFStyle.pageHeight - PDFStyle.margin - height
        let left = PDFStyle.margin
        let right = PDFStyle.margin + PDFStyle.contentWidth
        let rightToLeft = typesetter.isRightToLeft
        cairo_set_source_rgb(cr, PDFStyle.footerGrey, PDFStyle.footerGrey, PDFStyle.footerGrey)
        text.draw(on: cr, left: rightToLeft ? right - Self.textWidth : left, top: top)
        let label = Self.label(spec.pageLabel(page: page, of: pages), typesetter: typesetter)
        label.draw(on: cr, left: rightToLeft ? left : right - Self.labelWidth, top: top)
    }

    private static func label(_ text: String, typesetter: Typesetter) -> TextBox {
        typesetter.box(text, font: .footer, width: Self.labelWidth, side: .end)
    }
}
