import CPangoCairo

/// A signature block measured for the page: a frame holding its title, the strokes scaled
/// into a drawing area above a line, the typed name, what signing means and when it was done.
final class SignatureBox {
    private let title: TextBox
    private let name: TextBox
    private let meaning: TextBox
    private let signedAt: TextBox
    private let strokes: [[PDFPoint]]
    private let isRightToLeft: Bool
    let height: Double

    /// The box the strokes were drawn in.
    static let strokeArea = (width: 600.0, height: 200.0)

    init(_ signature: SignatureBlock, typesetter: Typesetter) {
        let width = PDFStyle.contentWidth - 2 * PDFStyle.signaturePadding
        title = typesetter.box(signature.title, font: .smallBold, width: width)
        name = typesetter.box(signature.name, font: .bold, width: width)
        meaning = typesetter.box(signature.meaning, font: .small, width: width, lineSpacing: 1.15)
        signedAt = typesetter.box(signature.signedAt, font: .small, width: width)
        strokes = signature.strokes
        isRightToLeft = typesetter.isRightToLeft
        let gap = PDFStyle.signatureGap
        height = 2 * PDFStyle.signaturePadding + title.height + gap + PDFStyle.signatureDrawingHeight + gap
            + name.height + gap / 2 + meaning.height + gap / 2 + signedAt.height
    }

    /// Draws the whole box, its top at `top`.
    func draw(on cr: OpaquePointer, top: Double) {
        let left = PDFStyle.margin
        let padding = PDFStyle.signaturePadding
        let gap = PDFStyle.signatureGap
        let innerLeft = left + padding
        cairo_set_line_width(cr, 0.75)
        cairo_set_source_rgb(cr, PDFStyle.frameGrey, PDFStyle.frameGrey, PDFStyle.frameGrey)
        cairo_rectangle(cr, left, top, PDFStyle.contentWidth, height)
        cairo_stroke(cr)

        var y = top + padding
        cairo_set_source_rgb(cr, 0, 0, 0)
        title.draw(on: cr, left: innerLeft, top: y)
        y += title.height + gap

        // The drawing sits where lines start: on the right in a right-to-left document.
        let drawingWidth = PDFStyle.signatureDrawingWidth
        let drawingLeft = isRightToLeft ? left + PDFStyle.contentWidth - padding - drawingWidth : innerLeft
        drawStrokes(on: cr, left: drawingLeft, top: y)
        y += PDFStyle.signatureDrawingHeight
        cairo_set_source_rgb(cr, 0, 0, 0)
        cairo_set_line_width(cr, 0.75)
        cairo_move_to(cr, drawingLeft, y)
        cairo_line_to(cr, drawingLeft + drawingWidth, y)
        cairo_stroke(cr)
        y += gap

        name.draw(on: cr, left: innerLeft, top: y)
        y += name.height + gap / 2
        meaning.draw(on: cr, left: innerLeft, top: y)
        y += meaning.height + gap / 2
        signedAt.draw(on: cr, left: innerLeft, top: y)
    }

    /// The strokes scaled from their 600 × 200 box into the drawing area, which has the same
    /// shape. A stroke of one point is drawn as a dot.
    private func drawStrokes(on cr: OpaquePointer, left: Double, top: Double) {
        let scale = PDFStyle.signatureDrawingWidth / Self.strokeArea.width
        cairo_save(cr)
        cairo_set_source_rgb(cr, 0.05, 0.1, 0.35)
        cairo_set_line_width(cr, PDFStyle.signatureStrokeWidth)
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        for stroke in strokes {
            // A point that is not a number would put Cairo in an error state for good.
            let points = stroke.filter { $0.x.isFinite && $0.y.isFinite }
            guard let first = points.first else { continue }
            func place(_ point: PDFPoint) -> (Double, Double) {
                (left + min(max(point.x, 0), Self.strokeArea.width) * scale,
                 top + min(max(point.y, 0), Self.strokeArea.height) * scale)
            }
            let start = place(first)
            cairo_move_to(cr, start.0, start.1)
            for point in points.dropFirst() {
                let next = place(point)
                cairo_line_to(cr, next.0, next.1)
            }
            if points.count == 1 { cairo_line_to(cr, start.0, start.1) }
            cairo_stroke(cr)
        }
        cairo_restore(cr)
    }
}
