import CLibXML2

/// Checks that a rendered page is well-formed XML and uses only allowed elements
/// and attributes. The server runs it over its templates at start-up and refuses
/// to serve any that emit markup outside what they may.
///
/// The document is parsed by libxml2's XML parser (not its HTML parser, which
/// would silently repair mistakes): no network, no external DTD, no entity
/// substitution. `<!DOCTYPE html>` is accepted, as is any doctype without an
/// external subset to load. Because there is no DTD, HTML named entities such
/// as `&nbsp;` are not defined and make the document not well-formed; use
/// numeric references (`&#160;`) or the character itself.
///
/// Names are compared exactly (XML is case-sensitive), with their namespace
/// prefix if they have one (`svg:rect`, `xml:lang`). Namespace declarations
/// count as attributes named `xmlns` or `xmlns:prefix`.
public struct MarkupChecker: Sendable {
    /// Element name → the attribute names allowed on it. The key `"*"` lists
    /// attributes allowed on every allowed element (e.g. `id`, `class`, `lang`);
    /// it does not make every element allowed.
    public let allowlist: [String: Set<String>]

    /// When true, any `data-…` and `aria-…` attribute is allowed on an allowed element.
    public let allowsDataAndAriaAttributes: Bool

    public init(allowlist: [String: Set<String>], allowsDataAndAriaAttributes: Bool = false) {
        self.allowlist = allowlist
        self.allowsDataAndAriaAttributes = allowsDataAndAriaAttributes
    }

    /// The problems in `document`, deduplicated, in document order; empty when it is fine.
    ///
    /// A document that is not well-formed yields one problem, `not well-formed:
    /// line N: <libxml2's message>` (the first error libxml2 found; later ones
    /// are usually consequences), and is not checked further. Otherwise each
    /// element and attribute outside the allowlist is reported once:
    /// `element <blink> is not allowed`, `attribute onclick on <div> is not allowed`.
    public func check(_ document: String) -> [String] {
        LibXML2Runtime.prepare()
        // libxml2 takes the length as an Int32.
        guard document.utf8.count < Int32.max else { return ["not checked: the document is too long"] }
        guard let context = xmlNewParserCtxt() else {
            return ["not checked: libxml2 could not allocate a parser"]
        }
        defer { xmlFreeParserCtxt(context) }

        // Record the first error through this context's own structured-error hook:
        // per-call state, so concurrent checks cannot see each other's errors (the
        // global xmlGetLastError() is per thread, and ctxt->lastError keeps only the
        // last error, which after a mismatched tag is usually a knock-on one).
        let firstError = ParseErrorRecord()
        context.pointee._private = Unmanaged.passUnretained(firstError).toOpaque()
        context.pointee.sax.pointee.serror = { _, error in
            guard let error, error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue,
                let owner = error.pointee.ctxt?.assumingMemoryBound(to: xmlParserCtxt.self),
                let record = owner.pointee._private
            else { return }
            Unmanaged<ParseErrorRecord>.fromOpaque(record).takeUnretainedValue().keepIfFirst(error)
        }

        let options = Int32(
            XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue
        )
        let parsed: xmlDocPtr? = withExtendedLifetime(firstError) {
            document.utf8CString.withUnsafeBufferPointer { buffer in
                // utf8CString ends with a NUL that is not part of the text.
                xmlCtxtReadMemory(context, buffer.baseAddress, Int32(buffer.count - 1), nil, "UTF-8", options)
            }
        }
        context.pointee._private = nil

        guard let doc = parsed, context.pointee.wellFormed != 0 else {
            parsed.map(xmlFreeDoc)
            return ["not well-formed: " + (firstError.description ?? Self.describe(context.pointee.lastError))]
        }
        defer { xmlFreeDoc(doc) }

        var problems = Problems()
        if context.pointee.nsWellFormed == 0 {
            problems.add("namespace error: " + (firstError.description ?? Self.describe(context.pointee.lastError)))
        }
        guard let root = xmlDocGetRootElement(doc) else {
            return ["not well-formed: no root element"]
        }
        walk(root, into: &problems)
        return problems.list
    }

    // MARK: - Allowlist

    /// Visits every element under and including `root`, without recursion.
    private func walk(_ root: xmlNodePtr, into problems: inout Problems) {
        var next: xmlNodePtr? = root
        while let node = next {
            if node.pointee.type == XML_ELEMENT_NODE {
                check(element: node, into: &problems)
                if let child = node.pointee.children {
                    next = child
                    continue
                }
            }
            var current = node
            next = nil
            while current != root {
                if let sibling = current.pointee.next {
                    next = sibling
                    break
                }
                guard let parent = current.pointee.parent else { break }
                current = parent
            }
        }
    }

    private func check(element node: xmlNodePtr, into problems: inout Problems) {
        let name = Self.qualifiedName(node.pointee.name, prefix: node.pointee.ns?.pointee.prefix)
        guard let allowed = allowlist[name], name != "*" else {
            problems.add("element <\(name)> is not allowed")
            return
        }
        let global = allowlist["*"] ?? []
        func checkAttribute(_ attribute: String) {
            if allowed.contains(attribute) || global.contains(attribute) { return }
            if allowsDataAndAriaAttributes, Self.isDataOrAria(attribute) { return }
            problems.add("attribute \(attribute) on <\(name)> is not allowed")
        }
        // Namespace declarations are not in `properties`, but they are attributes in the source.
        var declaration = node.pointee.nsDef
        while let ns = declaration {
            checkAttribute(ns.pointee.prefix.map { "xmlns:" + String(cString: $0) } ?? "xmlns")
            declaration = ns.pointee.next
        }
        var property = node.pointee.properties
        while let attribute = property {
            checkAttribute(Self.qualifiedName(attribute.pointee.name, prefix: attribute.pointee.ns?.pointee.prefix))
            property = attribute.pointee.next
        }
    }

    static func isDataOrAria(_ attribute: String) -> Bool {
        (attribute.hasPrefix("data-") || attribute.hasPrefix("aria-")) && attribute.utf8.count > 5
    }

    private static func qualifiedName(_ name: UnsafePointer<xmlChar>?, prefix: UnsafePointer<xmlChar>?) -> String {
        let local = name.map { String(cString: $0) } ?? ""
        guard let prefix else { return local }
        return String(cString: prefix) + ":" + local
    }

    /// `line N: message` for a libxml2 error.
    fileprivate static func describe(_ error: xmlError) -> String {
        var message = error.message.map { String(cString: $0) } ?? "error \(error.code)"
        while message.last?.isWhitespace == true { message.removeLast() }
        return error.line > 0 ? "line \(error.line): \(message)" : message
    }
}

/// The first error libxml2 reported during one parse.
private final class ParseErrorRecord {
    private(set) var description: String?

    func keepIfFirst(_ error: xmlErrorPtr) {
        if description == nil {
            description = MarkupChecker.describe(error.pointee)
        }
    }
}

/// Problems in order, each once.
private struct Problems {
    private(set) var list: [String] = []
    private var seen: Set<String> = []

    mutating func add(_ problem: String) {
        if seen.insert(problem).inserted { list.append(problem) }
    }
}
