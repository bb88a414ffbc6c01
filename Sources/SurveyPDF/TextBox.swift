import CPangoCairo

/// One piece of text laid out by Pango at a fixed width, with each line measured so that a
/// page can be cut between two lines. Owns its PangoLayout, which must not change once made:
/// the lines point into it.
final class TextBox {
    /// A line's place in the layout, in points from the layout's top left corner.
    struct Line {
        let line: UnsafeMutablePointer<PangoLayoutLine>
        let top: Double
        let bottom: Double
        let baseline: Double
        /// Where the line starts, its alignment included.
        let x: Double
    }

    let layout: OpaquePointer
    let lines: [Line]

    /// Takes over `layout` (one reference) and measures its lines.
    init(layout: OpaquePointer) {
        self.layout = layout
        lines = Self.measure(layout)
    }

    deinit {
        g_object_unref(UnsafeMutableRawPointer(layout))
    }

    /// The height of all lines.
    var height: Double { lines.isEmpty ? 0 : height(of: lines.indices) }

    /// The height of some lines, from the top of the first to the bottom of the last.
    func height(of range: Range<Int>) -> Double {
        range.isEmpty ? 0 : lines[range.upperBound - 1].bottom - lines[range.lowerBound].top
    }

    /// Draws some of the lines in the current source colour: the first one's top at `top`,
    /// the layout's left edge at `left`.
    func draw(_ range: Range<Int>, on cr: OpaquePointer, left: Double, top: Double) {
        guard !range.isEmpty else { return }
        let shift = top - lines[range.lowerBound].top
        for line in lines[range] {
            // Drawn one by one, not as a clipped layout, so that lines on other pages
            // leave no hidden text behind for a text extractor to find.
            cairo_move_to(cr, left + line.x, shift + line.baseline)
            pango_cairo_show_layout_line(cr, line.line)
        }
    }

    /// Draws every line.
    func draw(on cr: OpaquePointer, left: Double, top: Double) {
        draw(lines.indices, on: cr, left: left, top: top)
    }

    private static func measure(_ layout: OpaquePointer) -> [Line] {
        guard let iter = pango_layout_get_iter(layout) else { return [] }
        defer { pango_layout_iter_free(iter) }
        var lines: [Line] = []
        repeat {
            guard let line = pango_layout_iter_get_line_readonly(iter) else { continue }
            var top: Int32 = 0
            var bottom: Int32 = 0
            pango_layout_iter_get_line_yrange(iter, &top, &bottom)
            var logical = PangoRectangle()
            pango_layout_iter_get_line_extents(iter, nil, &logical)
            lines.append(Line(
                line: line,
                top: pango_units_to_double(top),
                bottom: pango_units_to_double(bottom),
                baseline: pango_units_to_double(pango_layout_iter_get_baseline(iter)),
                x: pango_units_to_double(logical.x)
            ))
        } while pango_layout_iter_next_line(iter) != 0
        return lines
    }
}
