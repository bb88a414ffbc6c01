import Foundation

/// The words of a survey's preview: how its rules and answer formats read to the researcher
/// who wrote it. English only, as the preview is the researcher's tool; the participant's words
/// (buttons, month names) stay in the catalog in `Words/`. Every sentence of the preview is built
/// from this table, with `%1$@`, `%2$@`, … filled as in the catalog.
enum PreviewWords {
    /// One entry of the table. An enum, so a misspelt key does not compile.
    enum Key: String, CaseIterable, Sendable {
        // Joining tests: "A and B", "either A or B", "neither A nor B", "not (A)".
        case andSeparator, orSeparator, norSeparator, listSeparator, either, neither, not, group, always, never, everyInstance
        // One test on one answer, and its natural negation beside it.
        case isValue, isNotValue, include, notInclude, includeAll, notIncludeAll, matches, notMatches
        case between, notBetween, atLeast, below, atMost, above
        case onDay, notOnDay, onOrAfter, before, onOrBefore, after, orLater, orEarlier
        case hasValue, unanswered, answered, notAnswered, expression
        // Values inside a test.
        case quoted, rawValue, labelled, withUnit, percent, centimetres, kilograms, rung, hours, minutes, seconds, utc
        // Where a rule leads.
        case step, end, nextStep, afterStep, ifGo, otherwiseIfGo, otherwiseGo, alwaysGo, skipped, shown
        // Answer formats in a few words.
        case yesNo, yesNoLabelled, oneOf, anyOf, choicesOne, choicesMany, notes, noteSeparator
        case exclusiveOne, exclusiveMany, otherOne, otherMany, picker, listsOne, listsMany
        case imageChoice, imageChoiceAny, scale, scaleSteps, slider, decimalsOne, decimalsMany, textScale
        case number, wholeNumber, range, atLeastShort, atMostShort, inUnit
        case timeOfDay, minuteSteps, date, dateAndTime, dateBetween, dateFrom, dateUntil
        case today, dayAgo, daysAgo, dayAhead, daysAhead
        case hoursAndMinutes, text, upTo, severalLines, matching, email
        case height, heightFeet, heightByRegion
        case weight, pounds, poundsAndOunces, weightByRegion, wholeUnits
        case age, younger, older, birthYear, location, ses, orAnswer
    }

    static let english: [Key: String] = [
        .andSeparator: " and ", .orSeparator: " or ", .norSeparator: " nor ", .listSeparator: ", ",
        .either: "either %1$@", .neither: "neither %1$@", .not: "not (%1$@)", .group: "(%1$@)",
        .everyInstance: "in every instance, %1$@",
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
        .notAnswered: "%1$@ has no answer", .expression: "the expression %1$@ is true",

        .quoted: "“%1$@”", .rawValue: "\"%1$@\"", .labelled: "%1$@ (%2$@)", .withUnit: "%1$@ %2$@", .percent: "%1$@%",
        .centimetres: "cm", .kilograms: "kg",
        .rung: "rung %1$@", .hours: "%1$@ h", .minutes: "%1$@ min", .seconds: "%1$@ s", .utc: "%1$@ UTC",

        .step: "step %1$@", .end: "the end", .nextStep: "the next step, %1$@", .afterStep: "after %1$@: %2$@",
        .ifGo: "if %1$@ → %2$@", .otherwiseIfGo: "otherwise, if %1$@ → %2$@", .otherwiseGo: "otherwise → %1$@",
        .alwaysGo: "always → %1$@", .skipped: "skipped when %1$@", .shown: "shown only when %1$@",

        .yesNo: "Yes / No", .yesNoLabelled: "Yes / No (%1$@ / %2$@)",
        .oneOf: "one of %1$@", .anyOf: "any of %1$@", .choicesOne: "1 choice", .choicesMany: "%1$@ choices",
        .notes: "%1$@ (%2$@)", .noteSeparator: "; ",
        .exclusiveOne: "one excludes the others", .exclusiveMany: "%1$@ exclude the others",
        .otherOne: "one with a text box", .otherMany: "%1$@ with a text box",
        .picker: "picker of %1$@", .listsOne: "1 list", .listsMany: "%1$@ lists",
        .imageChoice: "image choice of %1$@", .imageChoiceAny: "image choice, any of %1$@",
        .scale: "scale %1$@–%2$@", .scaleSteps: "scale %1$@–%2$@ in steps of %3$@", .slider: "slider %1$@",
        .decimalsOne: "1 decimal place", .decimalsMany: "%1$@ decimal places",
        .textScale: "scale of %1$@: %2$@ to %3$@",
        .number: "number", .wholeNumber: "whole number", .range: "%1$@–%2$@",
        .atLeastShort: "≥ %1$@", .atMostShort: "≤ %1$@", .inUnit: "in %1$@",
        .timeOfDay: "time of day", .minuteSteps: "in %1$@-minute steps",
        .date: "date", .dateAndTime: "date and time",
        .dateBetween: "%1$@ between %2$@ and %3$@", .dateFrom: "%1$@ on or after %2$@", .dateUntil: "%1$@ on or before %2$@",
        .today: "today", .dayAgo: "1 day ago", .daysAgo: "%1$@ days ago", .dayAhead: "1 day from today",
        .daysAhead: "%1$@ days from today",
        .hoursAndMinutes: "hours and minutes", .text: "text", .upTo: "up to %1$@ characters", .severalLines: "on several lines",
        .matching: "matching /%1$@/", .email: "email address",
        .height: "height in %1$@", .heightFeet: "feet and inches",
        .heightByRegion: "cm or feet and inches by region",
        .weight: "weight in %1$@", .pounds: "lb", .poundsAndOunces: "lb and oz",
        .weightByRegion: "kg or lb by region", .wholeUnits: "whole units",
        .age: "age %1$@", .younger: "under %1$@", .older: "over %1$@", .birthYear: "recorded as the year of birth",
        .location: "location", .ses: "SES ladder", .orAnswer: "or %1$@",
    ]

    static subscript(key: Key) -> String { english[key] ?? key.rawValue }

    /// The entry `key` with its placeholders filled by `values` in order.
    static func fill(_ key: Key, _ values: String...) -> String {
        Catalog.fill(template: self[key], values)
    }

    /// "1 choice" or "3 choices": the entry for one, or the entry for many with the count.
    static func count(_ count: Int, one: Key, many: Key) -> String {
        count == 1 ? self[one] : fill(many, String(count))
    }
}
