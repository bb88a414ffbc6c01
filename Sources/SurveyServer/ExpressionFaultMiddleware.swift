import Foundation
import Hummingbird
import Logging
import SurveyCore

/// Writes a warning with the request id for every FHIRPath expression that went over its budget
/// while the request worked a run out (it counted as empty there). The line names the survey, the
/// step, the question, the limit and the expression as the author wrote it; never an answer.
struct ExpressionFaultMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let logger = context.logger
        return try await ExpressionFault.$report.withValue({ fault in
            logger.warning("A FHIRPath expression went over its budget and counted as empty", metadata: [
                "survey": "\(fault.survey)", "step": "\(fault.step ?? "-")", "question": "\(fault.question ?? "-")",
                "limit": "\(fault.limit)", "expression": "\(fault.expression)",
            ])
        }) {
            try await next(request, context)
        }
    }
}
