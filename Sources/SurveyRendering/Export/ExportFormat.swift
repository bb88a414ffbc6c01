import Foundation

/// The formats a survey's runs export to.
public enum ExportFormat: String, Sendable, CaseIterable {
    /// One row per run, one column per question (or per choice of a multiple choice).
    case csv
    /// One row per step visit and question, with why an answer is missing.
    case long
    /// One row per column of the wide CSV: what it holds.
    case codebook
    /// Base R that reads the wide CSV (with missing codes) with labels.
    case r
    /// SPSS syntax that reads the wide CSV (with missing codes) with labels.
    case spss
    /// An array of spec §5 results.
    case json
    /// An array of results in ResearchKit's serialization.
    case researchkit
    /// A FHIR R4 Bundle (type collection) of QuestionnaireResponses.
    case fhir
    /// A FHIR R4 transaction Bundle: each run's QuestionnaireResponse and the Observations extracted from it.
    case fhirTransaction = "fhir-transaction"

    /// Whether the format holds runs; the codebook and the syntax files describe the survey only.
    public var readsRuns: Bool {
        switch self {
        case .codebook, .r, .spss: return false
        default: return true
        }
    }

    public var contentType: String {
        switch self {
        case .csv, .long, .codebook: return "text/csv; charset=utf-8"
        case .json, .researchkit: return "application/json; charset=utf-8"
        case .fhir, .fhirTransaction: return "application/fhir+json; charset=utf-8"
        case .r, .spss: return "text/plain; charset=utf-8"
        }
    }

    public var fileExtension: String {
        switch self {
        case .csv, .long, .codebook: return "csv"
        case .json, .researchkit, .fhir, .fhirTransaction: return "json"
        case .r: return "R"
        case .spss: return "sps"
        }
    }
}
