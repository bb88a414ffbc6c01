import Foundation
import JSON

public struct SectionHeader: Sendable, Hashable {
    public var sectionTitle: LocalizedText
    public var detailText: LocalizedText?
    /// The nested FHIR group the header opens (docs/fhir.md).
    public var fhir: JSONObject?
    public init(sectionTitle: LocalizedText, detailText: LocalizedText? = nil, fhir: JSONObject? = nil) {
        self.sectionTitle = sectionTitle
        self.detailText = detailText
        self.fhir = fhir
    }
}
