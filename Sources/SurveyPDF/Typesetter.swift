import CPangoCairo

/// Makes the text boxes of one document. Owns a Pango context set to the document's language
/// and direction, and the fonts; used on one thread, by one `PDFMaker.make` call.
final class Typesetter {
    /// Which side of the text area a box's lines are aligned to.
    enum Side { case start, end }

    let isRightToLeft: Bool
    private let context: OpaquePointer
    private let fonts: [PDFStyle.Font: OpaquePointer]

    init(cairo cr: OpaquePointer, language: String, isRightToLeft: Bool) {
        self.isRightToLeft = isRightToLeft
        // Pango keeps one default font map for each thread, so this call shares nothing with
        // one running on another thread, and the fonts it loads stay cached for the next call
        // on this one. It belongs to Pango: the context takes its own reference.
        let fontMap = pango_cairo_font_map_get_default()
        context = pango_font_map_create_context(fontMap)
        // The surface's font options: no hinting, so text measures as it prints.
        pango_cairo_update_context(cr, context)
        // A PDF's unit is the point, so a 10.5 pt font is 10.5 units tall (Pango assumes 96 dpi).
        pango_cairo_context_set_resolution(context, 72)
        pango_context_set_round_glyph_positions(context, 0)
        pango_context_set_language(context, pango_language_from_string(language))
        pango_context_set_base_dir(context, isRightToLeft ? PANGO_DIRECTION_RTL : PANGO_DIRECTION_LTR)
        var fonts: [PDFStyle.Font: OpaquePointer] = [:]
        for font in PDFStyle.Font.allCases {
            fonts[font] = pango_font_description_from_string(font.description)
        }
        self.fonts = fonts
    }

    deinit {
        for font in fonts.values { pango_font_description_free(font) }
        g_object_unref(UnsafeMutableRawPointer(context))
    }

    /// Lays out `text` in `font`, wrapped at `width` points. The first `boldBytes` bytes of
    /// its UTF-8 are set bold; `lineSpacing` multiplies the font's line height when above 0.
    func box(
        _ text: String, font: PDFStyle.Font, width: Double, side: Side = .start,
        lineSpacing: Double = 0, boldBytes: Int = 0
    ) -> TextBox {
        let layout = pango_layout_new(context)!
        // Every paragraph takes the document's direction, even one that starts with a word in
        // another script (Pango would otherwise guess each one's from its first letter).
        pango_layout_set_auto_dir(layout, 0)
        pango_layout_set_alignment(layout, alignment(side))
        pango_layout_set_width(layout, pango_units_from_double(width))
        // A word longer than the line is broken rather than left sticking out of the page.
        pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
        pango_layout_set_font_description(layout, fonts[font])
        if lineSpacing > 0 { pango_layout_set_line_spacing(layout, Float(lineSpacing)) }
        let clean = Self.withoutNUL(text)
        clean.withCString { pango_layout_set_text(layout, $0, Int32(clamping: clean.utf8.count)) }
        if boldBytes > 0 {
            let attributes = pango_attr_list_new()
            let bold = pango_attr_weight_new(PANGO_WEIGHT_BOLD)!
            bold.pointee.start_index = 0
            bold.pointee.end_index = UInt32(clamping: boldBytes)
            pango_attr_list_insert(attributes, bold)  // the list now owns it
            pango_layout_set_attributes(layout, attributes)
            pango_attr_list_unref(attributes)
        }
        return TextBox(layout: layout)
    }

    private func alignment(_ side: Side) -> PangoAlignment {
        // With a fixed direction Pango aligns to the side named, so the start is on the right
        // in a right-to-left document.
        (side == .start) != isRightToLeft ? PANGO_ALIGN_LEFT : PANGO_ALIGN_RIGHT
    }

    /// C strings end at the first NUL, so Pango would warn about (and cut) any text after one.
    static func withoutNUL(_ text: String) -> String {
        guard text.utf8.contains(0) else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.filter { $0 != "\0" }))
    }
}
