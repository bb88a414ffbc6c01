import Foundation

/// Everything a PDF is made of: its blocks of content, the words around them and the
/// language they are in. Pure data: with the same fonts and libraries, the same spec gives
/// the same bytes.
public struct PDFDocumentSpec: Sendable, Hashable {
    /// The PDF's metadata title; nothing is drawn from it (add a `.title` block for that).
    public var title: String
    /// A BCP 47 tag such as "en" or "ar": tells Pango which glyph forms and line breaks to use.
    public var language: String
    /// The base direction of every paragraph, and which side text is aligned to.
    public var isRightToLeft: Bool
    /// The content, top to bottom; it flows over as many pages as it needs.
    public var blocks: [PDFBlock]
    /// Drawn at the bottom of every page, on the side where lines start.
    public var footer: String
    /// The page number drawn at the bottom of every page, on the side where lines end:
    /// "{page}" becomes the page's number and "{pages}" the number of pages, e.g.
    /// "Page {page} of {pages}" or "صفحة {page} من {pages}".
    public var pageLabel: String
    /// Written as the PDF's creation and modification dates.
    public var createdAt: Date

    public init(
        title: String,
        language: String = "en",
        isRightToLeft: Bool = false,
        blocks: [PDFBlock],
        footer: String = "",
        pageLabel: String = "Page {page} of {pages}",
        createdAt: Date
    ) {
        self.title = title
        self.language = language
        self.isRightToLeft = isRightToLeft
        self.blocks = blocks
        self.footer = footer
        self.pageLabel = pageLabel
        self.createdAt = createdAt
    }

    /// The page label for one page, its placeholders filled in.
    func pageLabel(page: Int, of pages: Int) -> String {
        pageLabel.replacing("{page}", with: String(page)).replacing("{pages}", with: String(pages))
    }
}
