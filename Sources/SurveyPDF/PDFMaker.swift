import CPangoCairo

/// Turns a document description into the bytes of an A4 PDF, its text shaped by Pango in the
/// document's language and direction. Safe to call from several threads at once.
public enum PDFMaker {
    /// Lays out and draws the whole document; throws PDFError on a Cairo failure.
    public static func make(_ spec: PDFDocumentSpec) throws -> [UInt8] {
        let sink = PDFByteSink()
        // Cairo reaches the sink through a raw pointer, which does not keep it alive.
        try withExtendedLifetime(sink) {
            try render(spec, into: sink)
        }
        return sink.bytes
    }

    private static func render(_ spec: PDFDocumentSpec, into sink: PDFByteSink) throws(PDFError) {
        let surface = sink.makeSurface(width: PDFStyle.pageWidth, height: PDFStyle.pageHeight)
        defer { cairo_surface_destroy(surface) }
        try PDFError.check(cairo_surface_status(surface))
        PDFMetadata.set(on: surface, title: spec.title, createdAt: spec.createdAt)
        let cr = cairo_create(surface)!
        defer { cairo_destroy(cr) }
        try PDFError.check(cairo_status(cr))

        // Everything is laid out before anything is drawn, so each page knows the page count.
        let typesetter = Typesetter(cairo: cr, language: spec.language, isRightToLeft: spec.isRightToLeft)
        let footer = PageFooter(spec, typesetter: typesetter)
        let items = typesetter.flow(spec.blocks)
        let pages = Paginator.pages(
            of: items, top: PDFStyle.margin,
            bottom: PDFStyle.pageHeight - PDFStyle.margin - footer.height - PDFStyle.footerGap)

        for (index, page) in pages.enumerated() {
            for placement in page {
                draw(placement, on: cr)
            }
            footer.draw(page: index + 1, of: pages.count, on: cr)
            cairo_show_page(cr)
            try PDFError.check(cairo_status(cr))
        }
        cairo_surface_finish(surface)
        try PDFError.check(cairo_surface_status(surface))
    }

    private static func draw(_ placement: Placement, on cr: OpaquePointer) {
        switch placement {
        case .lines(let box, let range, let top):
            cairo_set_source_rgb(cr, 0, 0, 0)
            box.draw(range, on: cr, left: PDFStyle.margin, top: top)
        case .rule(let y):
            cairo_set_source_rgb(cr, PDFStyle.frameGrey, PDFStyle.frameGrey, PDFStyle.frameGrey)
            cairo_set_line_width(cr, PDFStyle.ruleWidth)
            cairo_move_to(cr, PDFStyle.margin, y)
            cairo_line_to(cr, PDFStyle.margin + PDFStyle.contentWidth, y)
            cairo_stroke(cr)
        case .signature(let box, let top):
            box.draw(on: cr, top: top)
        }
    }
}
