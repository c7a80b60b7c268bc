/// A guesser's opinion of the current drawing (protocol additions, "Ratings").
public enum Rating: String, Sendable, Hashable, Codable {
    case like
    case dislike
}

/// How a turn's drawing was rated, as sent in `ratings`, `room` and `turnEnd`.
public struct RatingCounts: Sendable, Hashable, Codable {
    public var likes: Int
    public var dislikes: Int

    public init(likes: Int = 0, dislikes: Int = 0) {
        self.likes = likes
        self.dislikes = dislikes
    }

    public init(_ ratings: [PlayerID: Rating]) {
        likes = ratings.values.count(where: { $0 == .like })
        dislikes = ratings.values.count(where: { $0 == .dislike })
    }

    func write(to w: inout JSONWriter) {
        w.beginObject()
        w.field("likes", likes)
        w.field("dislikes", dislikes)
        w.endObject()
    }
}

