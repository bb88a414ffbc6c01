import FHIRPath
import Foundation
import JSON
import Testing

/// Helpers shared by the FHIRPath tests.
enum FHIRPathTestSupport {
    static func json(_ text: String) -> JSONValue {
        do { return try JSONParser.parse(text) } catch { fatalError("fixture: \(error)") }
    }

    /// Evaluates `source`, recording an issue (and returning nil) when it fails.
    static func evaluate(_ source: String, _ environment: FHIRPathEnvironment = FHIRPathEnvironment(),
                         sourceLocation: SourceLocation = #_sourceLocation) -> [FHIRPathValue]? {
        do {
            return try FHIRPathExpression(source).evaluate(in: environment)
        } catch {
            Issue.record("\(source): \(error)", sourceLocation: sourceLocation)
            return nil
        }
    }

    /// The error `source` gives, when parsing or evaluating.
    static func failure(_ source: String, _ environment: FHIRPathEnvironment = FHIRPathEnvironment()) -> FHIRPathError? {
        do {
            _ = try FHIRPathExpression(source).evaluate(in: environment)
            return nil
        } catch {
            return error
        }
    }

    /// The error `init` refuses `source` with.
    static func refusal(_ source: String) -> FHIRPathError? {
        do {
            _ = try FHIRPathExpression(source)
            return nil
        } catch {
            return error
        }
    }

    static func decimal(_ text: String) -> FHIRPathValue {
        .decimal(Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))!)
    }
}
