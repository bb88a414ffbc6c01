import Logging
import SurveyCore

extension ExpressionFault {
    /// Writes a warning for every FHIRPath expression that goes over its budget while a run is
    /// worked out (it counted as empty there): the survey, the step, the question, the limit and
    /// the expression as the author wrote it; never an answer. Listened to once, as the server
    /// is built, so no request pays for it.
    static func logging(to logger: Logger) {
        listen { fault in
            logger.warning("A FHIRPath expression went over its budget and counted as empty", metadata: [
                "survey": "\(fault.survey)", "step": "\(fault.step ?? "-")", "question": "\(fault.question ?? "-")",
                "limit": "\(fault.limit)", "expression": "\(fault.expression)",
            ])
        }
    }
}
