import Foundation
import JSON

public enum DateStyle: String, Sendable, Hashable, CaseIterable {
    case date
    case dateAndTime
}
