import Foundation
import JSON

/// A typed address, with coordinates only where the browser offered them.
public struct LocationAnswer: Sendable, Hashable, Codable {
    public var userInput: String
    public var latitude: Double?
    public var longitude: Double?

    public init(userInput: String, latitude: Double? = nil, longitude: Double? = nil) {
        self.userInput = userInput
        self.latitude = latitude
        self.longitude = longitude
    }
}
