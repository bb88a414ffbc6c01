import Foundation
import Hummingbird
import JSON
import SurveyCore
import SurveyRendering
import SurveyStorage

// What the API says of a panel study: the parameters a run is made with, and each quota's count.
extension ResearcherAPI {
    /// The `parameters` of a request to create a run, checked as a survey's address is.
    static func parameters(_ value: JSONValue?, for task: SurveyTask) -> Result<[String: String], ProblemMessage> {
        var items: [(name: String, value: String)] = []
        if let value {
            guard case .object(let object) = value else { return .failure(ProblemMessage("\"parameters\" must be an object of strings.")) }
            for (name, entry) in object.entries {
                guard case .string(let text) = entry else { return .failure(ProblemMessage("The parameter \"\(name)\" must be a string.")) }
                items.append((name, text))
            }
        }
        switch task.parameterValues(from: items) {
        case .success(let values): return .success(values)
        case .failure(let error): return .failure(ProblemMessage(error.sentence))
        }
    }

    /// `GET /api/v1/surveys/{survey}/quotas`: each quota's limit and the completed runs it counted.
    func quotas(_ request: Request, _ context: SurveyRequestContext, by actor: AuditActor) async throws -> Response {
        guard let identifier = context.parameters.get("survey"), let pages = catalog.surveys[identifier] else {
            return Self.problem(.notFound, "There is no survey with this identifier.")
        }
        let counts = try await runs.store.quotaCounts(survey: identifier)
        let quotas: [JSONValue] = pages.task.quotas.map { quota in
            .object(JSONObject([("identifier", .string(quota.identifier)), ("limit", .number(Double(quota.limit))),
                                ("count", .number(Double(counts[quota.identifier] ?? 0))),
                                ("full", .bool((counts[quota.identifier] ?? 0) >= quota.limit))]))
        }
        return Self.json(.object(JSONObject([("survey", .string(identifier)), ("quotas", .array(quotas))])))
    }
}

/// A sentence for a 4xx answer.
struct ProblemMessage: Error {
    let text: String
    init(_ text: String) { self.text = text }
}

extension ParameterError {
    /// What is wrong, in a sentence for a researcher.
    var sentence: String {
        switch fault {
        case .missing: return "The parameter \"\(name)\" is required."
        case .repeated: return "The parameter \"\(name)\" is given more than once."
        case .tooLong(let limit): return "The parameter \"\(name)\" is longer than \(limit) characters."
        case .malformed: return "The parameter \"\(name)\" does not have the form the survey asks for."
        }
    }
}
