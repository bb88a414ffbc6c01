import Foundation
import JSON
@testable import FHIRPath
import Testing

/// Dates and date-times moved by time quantities, and today() and now() from the environment's clock.
@Suite("FHIRPath date arithmetic")
struct FHIRPathDateArithmeticTests {
    static let clock = FHIRPathEnvironment.Clock(Date(timeIntervalSince1970: 1_795_000_000), in: TimeZone(identifier: "Europe/Madrid")!)

    static func value(_ source: String, resource: JSONValue? = nil) throws -> [FHIRPathValue] {
        try FHIRPathExpression(source).evaluate(in: FHIRPathEnvironment(resource: resource, clock: clock))
    }

    @Test("Calendar steps, with a day past the month's end made its last day", arguments: [
        ("@2022-01-31 + 1 month", FHIRPathValue.date("2022-02-28")),
        ("@2024-02-29 + 1 'a'", .date("2025-02-28")),
        ("@2024-03-10 - 18 years", .date("2006-03-10")),
        ("@2022-12-30 + 2 weeks", .date("2023-01-13")),
        ("@2022-03-01 - 1 'd'", .date("2022-02-28")),
        ("@2022-11 + 3 months", .date("2023-02")),
        ("@2014 + 24 months", .date("2016")),
        ("@2014 + 400 days", .date("2015")),
        ("@2022-05-03T23:30:00+02:00 + 45 minutes", .dateTime("2022-05-04T00:15:00+02:00")),
        ("@2022-05-03T10:00 - 1.5 'h'", .dateTime("2022-05-03T08:30")),
    ])
    func steps(_ source: String, _ expected: FHIRPathValue) throws {
        #expect(try Self.value(source) == [expected], "\(source)")
    }

    @Test("today() and now() are the environment's clock, in its zone")
    func clock() throws {
        #expect(Self.clock.today == "2026-11-18")
        #expect(try Self.value("today()") == [.date("2026-11-18")])
        #expect(try Self.value("now()") == [.dateTime(Self.clock.now)])
        #expect(Self.clock.now.hasSuffix("+01:00"))
        #expect(try Self.value("today() > @2026-11-17") == [.boolean(true)])
    }

    @Test("An age in years from a quantity answer: the birth year it implies")
    func ageFromAnswer() throws {
        let response = try JSONParser.parse(#"""
            {"resourceType": "QuestionnaireResponse", "item": [{"linkId": "age", "answer": [{"valueQuantity": {"value": 30, "unit": "years", "system": "http://unitsofmeasure.org", "code": "a"}}]}]}
            """#)
        #expect(try Self.value("(today() - item.where(linkId = 'age').answer.value) < @1997", resource: response) == [.boolean(true)])
    }
}
