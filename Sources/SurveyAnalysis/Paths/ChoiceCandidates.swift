import Foundation
import JSON
import SurveyCore

/// Candidate answers of the choice formats. A test on a choice answer only asks whether
/// certain values are among those chosen (or match a pattern), so the values the tests name
/// are tried in every combination, with one value they do not name beside them or not, and
/// texts typed into an "other" box where the format has one.
struct ChoiceCandidates {
    let choices: [TextChoice]
    let multiple: Bool
    let tested: TestedValues

    /// Named values beyond this many are tried one at a time, not in every combination.
    static let combinationLimit = 6

    var answers: [Answer] {
        let named = choices.indices.filter(isNamed)
        let others = otherTexts
        guard multiple else {
            return choices.map { .choices([$0.value]) } + others.map { .choices([.string($0)]) }
        }
        let unnamed = choices.indices.first { !named.contains($0) && !choices[$0].isExclusive }
        var sets: [[ChoiceValue]] = []
        let combined = Array(named.prefix(Self.combinationLimit))
        for mask in 0..<(1 << combined.count) {
            let base = combined.indices.filter { mask & (1 << $0) != 0 }.map { choices[combined[$0]].value }
            sets.append(base)
            if let unnamed { sets.append(base + [choices[unnamed].value]) }
            for text in others { sets.append(base + [.string(text)]) }
        }
        for index in named.dropFirst(Self.combinationLimit) { sets.append([choices[index].value]) }
        // A lone choice of every kind, so an exclusive or untested choice is tried too.
        sets += choices.map { [$0.value] }
        return sets.filter { !$0.isEmpty }.map { .choices($0) }
    }

    /// Whether a test names the choice, or a tested pattern may match its value.
    private func isNamed(_ index: Int) -> Bool {
        let value = choices[index].value
        return tested.choiceValues.contains(value) || tested.patterns.contains { Predicate.wholeMatch(value.formValue, $0) }
    }

    /// Texts an "other" box could hold: tested values that no choice has, and one fresh text.
    private var otherTexts: [String] {
        guard choices.contains(where: { $0.other != nil }) else { return [] }
        let taken = Set(choices.map(\.value.formValue))
        var texts: [String] = []
        for value in tested.choiceValues where !taken.contains(value.formValue) && !texts.contains(value.formValue) {
            texts.append(value.formValue)
        }
        for text in tested.texts where !taken.contains(text) && !texts.contains(text) { texts.append(text) }
        return Array(texts.prefix(4)) + ["Something else"]
    }

    /// One value per picker of a multiple value picker: the named values of each, or its first.
    static func components(_ pickers: [[TextChoice]], tested: TestedValues) -> [Answer] {
        var options: [[ChoiceValue]] = pickers.map { picker in
            var values = picker.filter { choice in
                tested.choiceValues.contains(choice.value) || tested.patterns.contains { Predicate.wholeMatch(choice.value.formValue, $0) }
            }.map(\.value)
            if let unnamed = picker.first(where: { !values.contains($0.value) }) { values.append(unnamed.value) }
            return values
        }
        options = options.map { Array($0.prefix(4)) }
        var combinations: [[ChoiceValue]] = [[]]
        for values in options {
            combinations = combinations.flatMap { prefix in values.map { prefix + [$0] } }
            if combinations.count > 256 { combinations = Array(combinations.prefix(256)) }
        }
        return combinations.filter { !$0.isEmpty }.map { .components($0) }
    }
}
