import Foundation
import JSON

/// Reads a form's `repeat` and `grid` keys (docs/repeats-and-grids.md).
extension SurveyDecoding {
    func formRepeat(_ reader: ObjectReader, at path: JSONPath) -> FormRepeat? {
        guard let entry = reader.objectReader("repeat", what: "\"repeat\"") else { return nil }
        let label = entry.text("label", required: true)
        let minimum = entry.integer("minimum") ?? 0
        let maximum = entry.integer("maximum", required: true)
        let summary = entry.string("summary", nonEmpty: true)
        let addAnother = entry.text("addAnother")
        entry.finish("\"repeat\"")
        var ok = true
        if minimum < 0 {
            log.error(path / "repeat" / "minimum", "\"minimum\" is a count of instances, 0 or more.")
            ok = false
        }
        if let maximum, maximum < max(minimum, 1) || maximum > FormRepeat.maximumAllowed {
            log.error(path / "repeat" / "maximum",
                      "\"maximum\" must be at least 1, at least \"minimum\" (\(minimum)), and at most \(FormRepeat.maximumAllowed); it is \(maximum).")
            ok = false
        }
        guard ok, let label, let maximum else { return nil }
        return FormRepeat(label: label, minimum: minimum, maximum: maximum, summary: summary, addAnother: addAnother)
    }
}
