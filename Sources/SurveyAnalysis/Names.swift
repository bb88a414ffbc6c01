import SurveyCore

/// The survey's predicate, not Foundation's macro type of the same name.
typealias Predicate = SurveyCore.Predicate
