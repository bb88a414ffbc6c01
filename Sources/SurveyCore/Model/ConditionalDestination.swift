import Foundation
import JSON

public struct ConditionalDestination: Sendable, Hashable {
    public var predicate: Predicate
    public var destination: Destination
    public init(if predicate: Predicate, destination: Destination) {
        self.predicate = predicate
        self.destination = destination
    }
}
