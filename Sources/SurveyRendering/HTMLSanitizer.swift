import CLibXML2

/// Reduces a RichText fragment (survey format §2) to the allowed HTML:
/// `p br strong em b i u ul ol li a[href]`, with `href` only `https:`, `http:`
/// or `mailto:`.
///
/// The fragment is parsed with libxml2's HTML parser, which repairs it the way
/// a browser roughly would (unclosed tags closed, stray end tags ignored,
/// entities decoded), and the resulting tree is serialised again here, by an
/// escaping serialiser that only knows the allowlist. libxml2's own serialiser
/// is not used.
///
/// What happens to everything else:
/// - `script style iframe object embed template noscript svg math` (and the
///   like, see ``removedWithContent``) are removed with all their content;
/// - any other element is unwrapped: its tags go, its content stays;
/// - comments and processing instructions are dropped;
/// - every attribute other than `href` on `a` is dropped;
/// - an `href` whose scheme is not allowed, or that has no scheme at all
///   (a relative URL), is dropped, and **the `a` is kept without it** — an
///   `<a>` without `href` is inert text, and keeping it keeps the author's
///   structure visible in the output.
///
/// Text and attribute values are always escaped (`& < > " '`). A kept `href`
/// is written in its normalised form: surrounding whitespace trimmed and
/// control characters removed, i.e. exactly the string whose scheme was
/// checked.
///
/// Plain text that contains no `<` and no `&` is not parsed at all; the result
/// is then ``SanitizedHTML/escaping(_:)`` of it.
///
/// Safe to call from many threads at once: each call parses its own document,
/// and libxml2 is initialised once, before the first parse.
public struct HTMLSanitizer: Sendable {
    public init() {}

    /// Elements kept, with no attributes other than `href` on `a`.
    static let allowedElements: Set<String> = ["p", "br", "strong", "em", "b", "i", "u", "ul", "ol", "li", "a"]

    /// Elements written without an end tag.
    static let voidElements: Set<String> = ["br"]

    /// Elements removed together with everything inside them. The first nine
    /// are the survey format's list; the rest are also never meant as text
    /// (document metadata, plug-ins, frames, form controls whose content is
    /// not prose).
    static let removedWithContent: Set<String> = [
        "script", "style", "iframe", "object", "embed", "template", "noscript", "svg", "math",
        "applet", "frame", "frameset", "noembed", "noframes", "title", "textarea", "select", "xmp",
        "plaintext",
    ]

    /// Structural elements the parser adds around (or merges from) the fragment.
    /// They are unwrapped without a note.
    static let documentElements: Set<String> = ["html", "head", "body"]

    /// URL schemes allowed in `href`, lower case, without the colon.
    static let allowedSchemes: Set<String> = ["https", "http", "mailto"]

    /// Sanitises `fragment`.
    ///
    /// - Returns: the safe HTML, and human-readable notes of what was removed
    ///   (deduplicated, in document order), e.g. `element <script>`,
    ///   `attribute onclick on <p>`, `href "javascript:alert(1)" on <a>`.
    public static func sanitize(_ fragment: String) -> (html: SanitizedHTML, removed: [String]) {
        // Nothing that could be markup or a character reference: escaping is all it takes.
        if !fragment.utf8.contains(where: { $0 == 0x3C || $0 == 0x26 || $0 == 0x00 }) {
            return (SanitizedHTML.escaping(fragment), [])
        }
        LibXML2Runtime.prepare()

        // libxml2 reports NUL as an error and turns it into a space; drop it instead,
        // as browsers do in text.
        let source = fragment.utf8.contains(0) ? fragment.replacing("\u{0}", with: "") : fragment
        // Opening html and body ourselves puts the fragment's content straight into
        // <body>: no implied <p> around leading text, no head. Content the parser
        // moves elsewhere (after a stray </body>, into <head>) is still walked,
        // because the walk starts at the document node.
        let input = "<html><body>" + source
        // libxml2 takes the length as an Int32.
        guard input.utf8.count < Int32.max else {
            return (SanitizedHTML.escaping(fragment), ["markup (the text is too long to parse)"])
        }

        // A context per call: nothing is shared between threads, and its lastError
        // tells whether the parser gave up part-way.
        guard let context = htmlNewParserCtxt() else {
            return (SanitizedHTML.escaping(fragment), ["markup (libxml2 could not allocate a parser)"])
        }
        defer { htmlFreeParserCtxt(context) }
        let options = Int32(
            HTML_PARSE_NOERROR.rawValue | HTML_PARSE_NOWARNING.rawValue | HTML_PARSE_NONET.rawValue
                | HTML_PARSE_IGNORE_ENC.rawValue
        )
        let parsed: htmlDocPtr? = input.utf8CString.withUnsafeBufferPointer { buffer in
            // utf8CString ends with a NUL that is not part of the text.
            htmlCtxtReadMemory(context, buffer.baseAddress, Int32(buffer.count - 1), nil, "UTF-8", options)
        }
        guard let doc = parsed else {
            // Only when out of memory (HTML parsing always recovers); fall back to plain text.
            return (SanitizedHTML.escaping(fragment), ["markup (libxml2 could not parse it)"])
        }
        defer { xmlFreeDoc(doc) }

        var serializer = Serializer()
        serializer.serializeChildren(of: doc)
        // The HTML parser recovers from every syntax error; it only halts on limits,
        // such as elements nested more than 256 deep. What followed is lost, so say so.
        if context.pointee.disableSAX != 0 {
            var message = context.pointee.lastError.message.map { String(cString: $0) } ?? "unknown error"
            while message.last?.isWhitespace == true { message.removeLast() }
            serializer.note("everything after the point where libxml2 stopped (\(message))")
        }
        return (SanitizedHTML(trustedHTML: String(decoding: serializer.output, as: UTF8.self)), serializer.removed)
    }

    /// The instance form of ``sanitize(_:)``.
    public func sanitize(_ fragment: String) -> (html: SanitizedHTML, removed: [String]) {
        Self.sanitize(fragment)
    }

    // MARK: - href

    /// What is left of an `href` value for checking and output: control characters
    /// (tab, newline and the rest of C0, and DEL) removed anywhere, since browsers
    /// drop tab and newline inside URLs, and whitespace trimmed at both ends.
    static func normalizedHref(_ value: String) -> String {
        let kept = value.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }
        guard let first = kept.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = kept.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        var result = String.UnicodeScalarView()
        result.append(contentsOf: kept[first...last])
        return String(result)
    }

    /// The URL scheme of a normalised `href`, lower-cased, or nil for a relative URL
    /// (no colon before the first `/ ? #`, or characters a scheme cannot have).
    static func scheme(of href: String) -> String? {
        var scheme = ""
        for (offset, byte) in href.utf8.enumerated() {
            switch byte {
            case UInt8(ascii: ":"):
                return offset == 0 ? nil : scheme
            case UInt8(ascii: "a")...UInt8(ascii: "z"):
                scheme.append(Character(Unicode.Scalar(byte)))
            case UInt8(ascii: "A")...UInt8(ascii: "Z"):
                scheme.append(Character(Unicode.Scalar(byte + 0x20)))
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."):
                if offset == 0 { return nil }
                scheme.append(Character(Unicode.Scalar(byte)))
            default:
                return nil
            }
        }
        return nil
    }

    /// The `href` to keep, or nil when it must go.
    static func allowedHref(_ value: String) -> String? {
        let href = normalizedHref(value)
        guard let scheme = scheme(of: href), allowedSchemes.contains(scheme) else { return nil }
        return href
    }
}

// MARK: - libxml2 set-up

/// libxml2's global initialisation, shared by everything in this module that parses.
enum LibXML2Runtime {
    /// `xmlInitParser()` must run once before libxml2 is used from several threads;
    /// a static let runs it exactly once, thread-safely. `xmlCleanupParser()` is
    /// never called: Foundation's XML support shares the same library.
    private static let initialised: Void = { xmlInitParser() }()

    static func prepare() {
        _ = initialised
    }
}

// MARK: - Serialiser

/// Walks a libxml2 tree and writes the allowed part of it. The walk is iterative
/// (children/next/parent links), so deep nesting cannot exhaust the stack.
private struct Serializer {
    var output: [UInt8] = []
    private(set) var removed: [String] = []
    private var seen: Set<String> = []

    private enum Decision {
        case keep(String)
        case unwrap
        case drop
    }

    mutating func note(_ text: String) {
        if seen.insert(text).inserted { removed.append(text) }
    }

    mutating func serializeChildren(of doc: htmlDocPtr) {
        let container = UnsafeMutableRawPointer(doc)
        var next = doc.pointee.children
        while let node = next {
            // Enter the node; descend when it has children to write.
            if enter(node), let child = node.pointee.children {
                next = child
                continue
            }
            // Move on: to the next sibling, or up, closing kept elements on the way.
            var current = node
            next = nil
            while true {
                if let sibling = current.pointee.next {
                    next = sibling
                    break
                }
                guard let parent = current.pointee.parent, UnsafeMutableRawPointer(parent) != container else {
                    break
                }
                leave(parent)
                current = parent
            }
        }
    }

    /// Writes what comes before a node's children. Returns whether to descend.
    private mutating func enter(_ node: xmlNodePtr) -> Bool {
        switch node.pointee.type {
        case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
            if let content = node.pointee.content {
                HTMLEscaping.escape(utf8: UnsafeBufferPointer(start: content, count: Int(xmlStrlen(content))), into: &output)
            }
            return false
        case XML_ELEMENT_NODE:
            let name = Self.name(of: node)
            switch decision(for: node, name: name) {
            case .drop:
                note("element <\(name)>")
                return false
            case .unwrap:
                return true
            case .keep(let name):
                writeStartTag(node, name: name)
                if HTMLSanitizer.voidElements.contains(name) {
                    return false
                }
                if node.pointee.children == nil {
                    writeEndTag(name)
                    return false
                }
                return true
            }
        case XML_COMMENT_NODE:
            note("comment")
            return false
        case XML_PI_NODE:
            note("processing instruction")
            return false
        case XML_DTD_NODE:
            // The parser's own doctype, not part of the fragment.
            return false
        default:
            note("node of type \(node.pointee.type.rawValue)")
            return false
        }
    }

    /// Writes what comes after a node's children (called only for nodes that were descended into).
    private mutating func leave(_ node: xmlNodePtr) {
        guard node.pointee.type == XML_ELEMENT_NODE else { return }
        let name = Self.name(of: node)
        if case .keep(let name) = decisionWithoutNotes(name: name) {
            writeEndTag(name)
        }
    }

    private func decisionWithoutNotes(name: String) -> Decision {
        if HTMLSanitizer.allowedElements.contains(name) { return .keep(name) }
        if HTMLSanitizer.removedWithContent.contains(name) { return .drop }
        return .unwrap
    }

    private mutating func decision(for node: xmlNodePtr, name: String) -> Decision {
        let decision = decisionWithoutNotes(name: name)
        if case .unwrap = decision, !HTMLSanitizer.documentElements.contains(name) {
            note(node.pointee.children == nil ? "element <\(name)>" : "element <\(name)> (content kept)")
        }
        return decision
    }

    private mutating func writeStartTag(_ node: xmlNodePtr, name: String) {
        output.append(UInt8(ascii: "<"))
        output.append(contentsOf: name.utf8)
        var wroteHref = false
        var attribute = node.pointee.properties
        while let attr = attribute {
            attribute = attr.pointee.next
            let attrName = attr.pointee.name.map { String(cString: $0) } ?? ""
            guard name == "a", attrName == "href" else {
                note("attribute \(attrName) on <\(name)>")
                continue
            }
            let value = Self.value(of: attr)
            guard !wroteHref, let href = HTMLSanitizer.allowedHref(value) else {
                note("href \(value.debugDescription) on <a>")
                continue
            }
            wroteHref = true
            output.append(contentsOf: " href=\"".utf8)
            HTMLEscaping.escape(href, into: &output)
            output.append(UInt8(ascii: "\""))
        }
        output.append(UInt8(ascii: ">"))
    }

    private mutating func writeEndTag(_ name: String) {
        output.append(contentsOf: "</".utf8)
        output.append(contentsOf: name.utf8)
        output.append(UInt8(ascii: ">"))
    }

    /// The element's name; the HTML parser has already lower-cased it.
    private static func name(of node: xmlNodePtr) -> String {
        guard let name = node.pointee.name else { return "" }
        return String(cString: name).lowercased()
    }

    /// An attribute's value, entity references already decoded by the parser.
    private static func value(of attr: xmlAttrPtr) -> String {
        var bytes: [UInt8] = []
        var child = attr.pointee.children
        while let node = child {
            if let content = node.pointee.content {
                bytes.append(contentsOf: UnsafeBufferPointer(start: content, count: Int(xmlStrlen(content))))
            }
            child = node.pointee.next
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
