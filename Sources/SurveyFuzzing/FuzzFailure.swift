import Foundation
import SurveyCore

/// A broken property: the input and what went wrong.
public struct FuzzFailure: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
