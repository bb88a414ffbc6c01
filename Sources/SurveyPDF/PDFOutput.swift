import CPangoCairo
import Foundation

/// The bytes Cairo writes, gathered in memory. Cairo holds it by a raw pointer, so whoever
/// makes the surface must keep it alive until the surface is destroyed.
final class PDFByteSink {
    var bytes: [UInt8] = []

    init() {
        bytes.reserveCapacity(64 * 1024)
    }

    /// A PDF surface of `width` × `height` points writing into this sink.
    func makeSurface(width: Double, height: Double) -> OpaquePointer {
        let closure = Unmanaged.passUnretained(self).toOpaque()
        return cairo_pdf_surface_create_for_stream({ closure, data, length in
            guard let closure else { return CAIRO_STATUS_WRITE_ERROR }
            guard let data, length > 0 else { return CAIRO_STATUS_SUCCESS }
            let sink = Unmanaged<PDFByteSink>.fromOpaque(closure).takeUnretainedValue()
            sink.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
            return CAIRO_STATUS_SUCCESS
        }, closure, width, height)
    }
}

/// The PDF's information dictionary.
enum PDFMetadata {
    /// Sets the title and dates; the fixed dates (Cairo would write the time of making
    /// otherwise) are what make the same spec give the same bytes.
    static func set(on surface: OpaquePointer, title: String, createdAt: Date) {
        let date = iso8601(createdAt)
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_TITLE, Typesetter.withoutNUL(title))
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATE_DATE, date)
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_MOD_DATE, date)
    }

    /// `date` in UTC to the second, "2025-03-04T05:06:07Z", worked out by hand so that no
    /// calendar, locale or time zone can change it.
    static func iso8601(_ date: Date) -> String {
        let interval = date.timeIntervalSince1970
        // Years 1 to 9999, the four digits the format has.
        let seconds = interval.isFinite ? Int64(min(max(interval, -62_135_596_800), 253_402_300_799).rounded(.down)) : 0
        let (days, secondOfDay) = seconds.quotientAndRemainder(dividingBy: 86_400)
        let (day, second) = secondOfDay < 0 ? (days - 1, secondOfDay + 86_400) : (days, secondOfDay)
        // Days since 1970-01-01 to a civil date (Howard Hinnant's algorithm).
        let shifted = day + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let dayOfMonth = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func digits(_ value: Int64, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return digits(year, 4) + "-" + digits(month, 2) + "-" + digits(dayOfMonth, 2) + "T"
            + digits(second / 3600, 2) + ":" + digits(second / 60 % 60, 2) + ":" + digits(second % 60, 2) + "Z"
    }
}
