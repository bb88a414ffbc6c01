import Testing
@testable import SurveyServer
