import CPangoCairo

/// Why a PDF could not be made.
public enum PDFError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Cairo reported an error: its status number and `cairo_status_to_string`'s message.
    case cairo(status: Int, message: String)

    public var description: String {
        switch self {
        case .cairo(let status, let message): "Cairo error \(status): \(message)"
        }
    }

    /// Throws when `status` is not success.
    static func check(_ status: cairo_status_t) throws(PDFError) {
        guard status != CAIRO_STATUS_SUCCESS else { return }
        throw .cairo(status: Int(status.rawValue), message: String(cString: cairo_status_to_string(status)))
    }
}
