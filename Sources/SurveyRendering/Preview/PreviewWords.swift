import Foundation

/// The words of a survey's preview: how its rules read to the researcher
/// who wrote it. English only, as the preview is the researcher's tool; the participant's words
/// (buttons, month names) stay in the catalog in `Words/`. Every sentence of the preview is built
/// from this table, with `%1$@`, `%2$@`, … filled as in the catalog.
enum PreviewWords {
    /// One entry of the table. An enum, so a misspelt key does not compile.
    enum Key: String, CaseIterable, Sendable {
        // Joining tests: "A and B", "either A or B", "neither A nor B", "not (A)".
        case andSeparator, orSeparator, norSeparator, listSeparator, either, neither, not, group, always, never
        // One test on one answer, and its natural negation beside it.
        case isValue, isNotValue, include, notInclude, includeAll, notIncludeAll, matches, notMatches
        case between, notBetween, atLeast, below, atMost, above
        case onDay, notOnDay, onOrAfter, before, onOrBefore, after, orLater, orEarlier
        case hasValue, unanswered, answered
        // Values inside a test.
        case quoted, rawValue, labelled, withUnit, percent, centimetres, kilograms, rung, hours, minutes, seconds, utc
        // Where a rule leads.
        case step, end, nextStep, afterStep, ifGo, otherwiseIfGo, otherwiseGo, alwaysGo, skipped, shown
    }

    static let english: [Key: String] = [
        .andSeparator: " and ", .orSeparator: " or ", .norSeparator: " nor ", .listSeparator: ", ",
        .either: "either %1$@", .neither: "neither %1$@", .not: "not (%1$@)", .group: "(%1$@)",
        .always: "always", .never: "never",

        .isValue: "%1$@ is %2$@", .isNotValue: "%1$@ is not %2$@",
        .include: "%1$@ include %2$@", .notInclude: "%1$@ do not include %2$@",
        .includeAll: "%1$@ include all of %2$@", .notIncludeAll: "%1$@ do not include all of %2$@",
        .matches: "%1$@ matches /%2$@/", .notMatches: "%1$@ does not match /%2$@/",
        .between: "%1$@ is between %2$@ and %3$@", .notBetween: "%1$@ is not between %2$@ and %3$@",
        .atLeast: "%1$@ is at least %2$@", .below: "%1$@ is below %2$@",
        .atMost: "%1$@ is at most %2$@", .above: "%1$@ is above %2$@",
        .onDay: "%1$@ is on %2$@", .notOnDay: "%1$@ is not on %2$@",
        .onOrAfter: "%1$@ is on or after %2$@", .before: "%1$@ is before %2$@",
        .onOrBefore: "%1$@ is on or before %2$@", .after: "%1$@ is after %2$@",
        .orLater: "%1$@ is %2$@ or later", .orEarlier: "%1$@ is %2$@ or earlier",
        .hasValue: "%1$@ has a value", .unanswered: "%1$@ was not answered", .answered: "%1$@ was answered",

        .quoted: "“%1$@”", .rawValue: "\"%1$@\"", .labelled: "%1$@ (%2$@)", .withUnit: "%1$@ %2$@", .percent: "%1$@%",
        .centimetres: "cm", .kilograms: "kg",
        .rung: "rung %1$@", .hours: "%1$@ h", .minutes: "%1$@ min", .seconds: "%1$@ s", .utc: "%1$@ UTC",

        .step: "step %1$@", .end: "the end", .nextStep: "the next step, %1$@", .afterStep: "after %1$@: %2$@",
        .ifGo: "if %1$@ → %2$@", .otherwiseIfGo: "otherwise, if %1$@ → %2$@", .otherwiseGo: "otherwise → %1$@",
        .alwaysGo: "always → %1$@", .skipped: "skipped when %1$@", .shown: "shown only when %1$@",
    ]

    static subscript(key: Key) -> String { english[key] ?? key.rawValue }

    /// The entry `key` with its placeholders filled by `values` in order.
    static func fill(_ key: Key, _ values: String...) -> String {
        Catalog.fill(template: self[key], values)
    }
}
