import Foundation
import JSON
@testable import SurveyAnalysis
@testable import SurveyCore

/// The survey's predicate, not Foundation's macro type of the same name, in every test of this target.
typealias Predicate = SurveyCore.Predicate
