import FHIRPath
import Foundation
import Testing

private typealias Kit = FHIRPathTestSupport

/// floor, ceiling, truncate and sqrt, and the engine's secondsUntil, which REDCap's datediff uses.
@Suite("FHIRPath math and date differences")
struct FHIRPathMathTests {
    static let cases: [(String, [FHIRPathValue])] = [
        ("1.5.floor()", [.integer(1)]),
        ("(-1.5).floor()", [.integer(-2)]),
        ("1.2.ceiling()", [.integer(2)]),
        ("(-1.2).ceiling()", [.integer(-1)]),
        ("2.7.truncate()", [.integer(2)]),
        ("(-2.7).truncate()", [.integer(-2)]),
        ("7.floor()", [.integer(7)]),
        ("16.sqrt()", [.decimal(4)]),
        ("(-4).sqrt()", []),
        ("{}.floor()", []),
        ("@2024-01-01.secondsUntil(@2024-01-02)", [.decimal(86_400)]),
        ("@2024-03-01.secondsUntil(@2024-02-28)", [.decimal(-172_800)]),
        ("@2024-01-01T10:00:00Z.secondsUntil(@2024-01-01T12:30:00+02:00)", [.decimal(1_800)]),
        ("@2024-01.secondsUntil(@2024-02-01)", []),
        // A value without a zone is read in the other's.
        ("@2024-01-02.secondsUntil(@2024-01-02T08:00:00+10:00)", [.decimal(28_800)]),
        ("@2024-01-02T10.secondsUntil(@2024-01-02T11:30)", [.decimal(5_400)]),
        ("{}.secondsUntil(@2024-02-01)", []),
        // Age in whole years from a birth date: REDCap's rounddown(datediff([dob], 'today', 'y')).
        ("(@2000-06-15.secondsUntil(@2026-06-14) / 31556952).abs().floor()", [.integer(25)]),
        ("(@2000-06-15.secondsUntil(@2026-06-16) / 31556952).abs().floor()", [.integer(26)]),
    ]

    @Test("Each function on literals", arguments: cases)
    func function(source: String, expected: [FHIRPathValue]) {
        #expect(Kit.evaluate(source) == expected, "\(source)")
    }

    @Test("floor of a text is an error naming the function")
    func notANumber() {
        #expect(Kit.failure("'a'.floor()")?.message.contains("floor") == true)
    }
}
