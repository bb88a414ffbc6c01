import Foundation
import JSON
import Mustache
import SurveyAnalysis
import SurveyCore

/// Where a survey's pages are shown: in a participant's own browser, on a clinic's shared
/// kiosk, whose pages live under `/kiosk/`, have large targets, no links out, autocomplete
/// off, and turn into "Are you still there?" when left idle; or in a researcher's preview,
/// beside a panel that says how the run got there.
public enum Presentation: Sendable, Hashable {
    case web
    case kiosk
    case preview

    /// The address of a survey's pages.
    public func base(_ survey: String) -> String {
        switch self {
        case .web: "/surveys/" + survey
        case .kiosk: "/kiosk/" + survey
        case .preview: "/preview/" + survey + "/run"
        }
    }
}
