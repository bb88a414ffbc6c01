import Foundation
import JSON

/// A form step's items as the tree of a Questionnaire group: nested groups, questions and notes.
///
/// The form step is the top-level group. A question or note with `fhir.within` goes into the
/// nested groups that chain names (outermost first; a chain that starts with the form's own
/// linkId skips it), each made the first time it is named. A section header with `fhir` is
/// the nested group of its `fhir.linkId` (inside its own `fhir.within`) and gives it its text.
/// A section header without `fhir` opens a group, `<stepId>.section<N>` (N counts the form's
/// section headers from 1), holding the items without `fhir.within` that follow it until the
/// next section header. Notes without `fhir.linkId` are `<stepId>.note<N>`.
final class FHIRFormGroup {
    enum Entry {
        case group(FHIRFormGroup)
        /// A question: its index in the form's `items`.
        case question(Int)
        /// A note: its index in the form's `items`, and its linkId.
        case note(Int, String)
    }

    let linkId: String
    /// The section header that gives the group its text, by index in the form's `items`.
    var section: Int?
    var entries: [Entry] = []

    init(linkId: String, section: Int? = nil) {
        self.linkId = linkId
        self.section = section
    }

    /// The layout of a form step.
    static func layout(of step: JSONValue) -> FHIRFormGroup {
        let stepIdentifier = step[fx: "identifier"]?.fxString ?? ""
        let root = FHIRFormGroup(linkId: FHIRExportSurvey.stepLinkId(step))
        var groups: [String: FHIRFormGroup] = [:]
        var openSection: FHIRFormGroup?
        var sections = 0
        var notes = 0

        func group(for chain: [String]) -> FHIRFormGroup {
            var chain = chain
            if chain.first == root.linkId { chain.removeFirst() }
            var parent = root
            for linkId in chain {
                if let known = groups[linkId] {
                    parent = known
                } else {
                    let made = FHIRFormGroup(linkId: linkId)
                    groups[linkId] = made
                    parent.entries.append(.group(made))
                    parent = made
                }
            }
            return parent
        }

        func chain(_ item: JSONValue) -> [String] {
            (item[fx: "fhir"]?[fx: "within"]?.fxArray ?? []).compactMap(\.fxText)
        }

        for (index, item) in (step[fx: "items"]?.fxArray ?? []).enumerated() {
            if item[fx: "sectionTitle"] != nil {
                sections += 1
                if let linkId = item[fx: "fhir"]?[fx: "linkId"]?.fxText {
                    group(for: chain(item) + [linkId]).section = index
                    openSection = nil
                } else {
                    let made = FHIRFormGroup(linkId: "\(stepIdentifier).section\(sections)", section: index)
                    root.entries.append(.group(made))
                    openSection = made
                }
                continue
            }
            let within = chain(item)
            let parent = within.isEmpty ? (openSection ?? root) : group(for: within)
            if item[fx: "note"] != nil {
                notes += 1
                parent.entries.append(.note(index, item[fx: "fhir"]?[fx: "linkId"]?.fxText ?? "\(stepIdentifier).note\(notes)"))
            } else if item[fx: "identifier"] != nil {
                parent.entries.append(.question(index))
            }
        }
        return root
    }
}
