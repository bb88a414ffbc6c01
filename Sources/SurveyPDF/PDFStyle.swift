/// The page and type sizes every document shares, in PDF points (1/72 inch).
enum PDFStyle {
    static let pageWidth = 595.28
    static let pageHeight = 841.89
    static let margin = 56.0
    static let contentWidth = pageWidth - 2 * margin
    /// Between the last line of the body and the footer.
    static let footerGap = 14.0

    /// The font a piece of text is set in.
    enum Font: CaseIterable {
        case body, bold, title, heading, small, smallBold, footer

        /// A Pango font description; Pango falls back to another face for scripts DejaVu lacks.
        var description: String {
            switch self {
            case .body: "DejaVu Sans 10.5"
            case .bold: "DejaVu Sans Bold 10.5"
            case .title: "DejaVu Sans Bold 18"
            case .heading: "DejaVu Sans Bold 13"
            case .small: "DejaVu Sans 9"
            case .smallBold: "DejaVu Sans Bold 10"
            case .footer: "DejaVu Sans 8"
            }
        }
    }

    /// Line height as a multiple of the font's own, for body text.
    static let bodyLineSpacing = 1.25
    /// Space above each kind of block; none at the top of a page.
    static let spaceBeforeTitle = 0.0
    static let spaceBeforeHeading = 16.0
    static let spaceBeforeParagraph = 8.0
    static let spaceBeforeField = 5.0
    static let spaceBeforeSignature = 14.0
    /// A rule's height, its line in the middle.
    static let ruleHeight = 14.0
    static let ruleWidth = 0.5

    /// The signature box: its frame's padding, the drawing's size (the strokes' 3:1), the
    /// space between its parts.
    static let signaturePadding = 10.0
    static let signatureDrawingWidth = 255.0
    static let signatureDrawingHeight = signatureDrawingWidth / 3
    static let signatureGap = 5.0
    static let signatureStrokeWidth = 1.2

    static let footerGrey = 0.42
    static let frameGrey = 0.6
}
