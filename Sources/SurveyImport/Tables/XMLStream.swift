import CLibXML2
import Foundation

/// One step through an XML document.
enum XMLEvent {
    /// An element opened. Attribute keys are local names, so `r:id` becomes `"id"`.
    case start(String, attributes: [String: String])
    /// An element closed; also sent straight after `start` for an empty element like `<c/>`.
    case end(String)
    /// Character data (text, CDATA or whitespace).
    case text(String)
}

/// Sets up libxml2's global state once, before any parsing, so parsing is safe from any thread.
private let libxml2Ready: Void = xmlInitParser()

/// A streaming XML reader built on libxml2's `xmlTextReader`.
///
/// The network is never used, entities are never expanded and documents with a DTD are refused,
/// which is what OOXML parts look like anyway. Memory use stays small however large the part is.
enum XMLStream {
    /// Reads `data` and calls `handle` for every event, with the local names of the enclosing
    /// elements (outermost first). `part` names the document in error messages.
    static func scan(
        _ data: Data, part: String,
        _ handle: (XMLEvent, _ path: [String]) throws(WorkbookError) -> Void
    ) throws(WorkbookError) {
        _ = libxml2Ready
        guard !data.isEmpty, data.count < Int(Int32.max) else { throw .malformed(part) }
        var failure: WorkbookError?
        data.withUnsafeBytes { raw in
            let buffer = raw.bindMemory(to: CChar.self)
            failure = scan(buffer, part: part, handle)
        }
        if let failure { throw failure }
    }

    /// Runs the reader over `buffer`, returning the first error instead of throwing it.
    private static func scan(
        _ buffer: UnsafeBufferPointer<CChar>, part: String,
        _ handle: (XMLEvent, [String]) throws(WorkbookError) -> Void
    ) -> WorkbookError? {
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue)
        guard let reader = xmlReaderForMemory(buffer.baseAddress, Int32(buffer.count), nil, nil, options) else {
            return .malformed(part)
        }
        defer { xmlFreeTextReader(reader) }

        var path: [String] = []
        do {
            while true {
                let status = xmlTextReaderRead(reader)
                if status == 0 { return nil }
                if status < 0 { return .malformed(part) }
                switch xmlReaderTypes(UInt32(xmlTextReaderNodeType(reader))) {
                case XML_READER_TYPE_ELEMENT:
                    let name = string(xmlTextReaderConstLocalName(reader))
                    let isEmpty = xmlTextReaderIsEmptyElement(reader) == 1
                    try handle(.start(name, attributes: attributes(of: reader)), path)
                    if isEmpty {
                        try handle(.end(name), path)
                    } else {
                        path.append(name)
                    }
                case XML_READER_TYPE_END_ELEMENT:
                    let name = path.popLast() ?? ""
                    try handle(.end(name), path)
                case XML_READER_TYPE_TEXT, XML_READER_TYPE_CDATA,
                    XML_READER_TYPE_WHITESPACE, XML_READER_TYPE_SIGNIFICANT_WHITESPACE:
                    try handle(.text(string(xmlTextReaderConstValue(reader))), path)
                case XML_READER_TYPE_DOCUMENT_TYPE, XML_READER_TYPE_ENTITY_REFERENCE, XML_READER_TYPE_ENTITY:
                    return .doctype(part)
                default:
                    continue  // comments, processing instructions, XML declaration
                }
            }
        } catch {
            return error
        }
    }

    /// The attributes of the element the reader is on, leaving the reader back on that element.
    private static func attributes(of reader: xmlTextReaderPtr) -> [String: String] {
        var result: [String: String] = [:]
        while xmlTextReaderMoveToNextAttribute(reader) == 1 {
            if xmlTextReaderIsNamespaceDecl(reader) == 1 { continue }
            result[string(xmlTextReaderConstLocalName(reader))] = string(xmlTextReaderConstValue(reader))
        }
        xmlTextReaderMoveToElement(reader)
        return result
    }

    /// Copies a libxml2 string (owned by the reader) into a Swift string.
    private static func string(_ pointer: UnsafePointer<xmlChar>?) -> String {
        pointer.map { String(cString: $0) } ?? ""
    }
}
