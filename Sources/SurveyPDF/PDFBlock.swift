/// One piece of a document's content, drawn the full width of the page's text area.
public enum PDFBlock: Sendable, Hashable {
    /// The document's title: large and bold.
    case title(String)
    /// A section heading, bold; it is never left alone at the bottom of a page.
    case heading(String)
    /// Body text wrapped to the page; "\n\n" separates paragraphs, "\n" breaks a line.
    case paragraph(String)
    /// A "label: value" line, its label bold; a long value wraps.
    case field(label: String, value: String)
    /// A signature in a box of its own, never split over two pages.
    case signature(SignatureBlock)
    /// A thin horizontal line.
    case rule
}

/// A signature as it is drawn: the strokes (if any) above a line, the typed name, the
/// sentence saying what signing means, and when it was signed.
public struct SignatureBlock: Sendable, Hashable {
    /// Whose signature this is, e.g. "Participant" or "Person obtaining consent".
    public var title: String
    /// The typed given and family name.
    public var name: String
    /// What signing means, e.g. "By typing my name I confirm …".
    public var meaning: String
    /// When it was signed, already formatted for the reader.
    public var signedAt: String
    /// The drawn strokes, each a run of points in a 600 × 200 box (x right, y down); may be
    /// empty. Points outside the box are drawn at its edge.
    public var strokes: [[PDFPoint]]

    public init(title: String, name: String, meaning: String, signedAt: String, strokes: [[PDFPoint]] = []) {
        self.title = title
        self.name = name
        self.meaning = meaning
        self.signedAt = signedAt
        self.strokes = strokes
    }
}

/// A point of a signature stroke, in the 600 × 200 box the strokes were drawn in.
public struct PDFPoint: Sendable, Hashable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}
