import Foundation
import SurveyCore

/// The order a language writes the day, month and year in, which is the order of the date
/// question's three boxes and of the example date in its hint and problem. Only the order on
/// the page changes: the boxes keep their names, so reading them does not.
extension Catalog {
    /// Regions whose English writes the month first ("3/27/2007"): the United States, the
    /// territories that follow its usage, and the Philippines.
    static let monthFirstEnglishRegions: Set<String> = ["US", "AS", "GU", "MP", "PR", "UM", "VI", "PH"]

    /// Day, month, year; month, day, year for English as the United States writes it.
    public var datePartOrder: [AnswerIssue.DatePart] {
        let subtags = language.split(separator: "-").map(String.init)
        guard subtags.first?.lowercased() == "en" else { return [.day, .month, .year] }
        // The region is the first two-letter subtag after the language (after a script, if any).
        let region = subtags.dropFirst().first { $0.count == 2 && $0.allSatisfy(\.isLetter) }?.uppercased()
        return region.map(Self.monthFirstEnglishRegions.contains) == true ? [.month, .day, .year] : [.day, .month, .year]
    }

    /// 27 March 2007 written in the boxes' order, as the hint and the problem show it: "27 3 2007".
    var dateExample: String {
        datePartOrder.map { part in
            switch part {
            case .day: "27"
            case .month: "3"
            case .year: "2007"
            }
        }.joined(separator: " ")
    }
}
