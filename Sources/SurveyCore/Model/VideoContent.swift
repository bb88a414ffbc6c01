import Foundation
import JSON

public struct VideoContent: Sendable, Hashable {
    public var videoURL: String?
    public var captionsURL: String?
    public init(videoURL: String? = nil, captionsURL: String? = nil) {
        self.videoURL = videoURL
        self.captionsURL = captionsURL
    }
}
