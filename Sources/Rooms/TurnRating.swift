import DrawProtocol

/// The ratings of a finished turn changed during its `turnEnd`: update the stored turn.
public struct TurnRating: Sendable, Hashable {
    public var roomCode: RoomCode
    public var game: Int
    public var turn: Int
    public var counts: RatingCounts
}

/// The turn whose drawing can be rated: from the start of `drawing` to the end of the
/// `turnEnd` after it.
struct RatedTurn: Sendable {
    var drawer: PlayerID
    var game: Int
    var turn: Int
    var ratings: [PlayerID: Rating] = [:]
    var counts: RatingCounts { RatingCounts(ratings) }
}
