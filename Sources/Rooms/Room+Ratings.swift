import DrawProtocol

extension Room {
    /// `rate`: a seated guesser likes, dislikes or withdraws its rating (`nil`) of the
    /// current drawing, during `drawing` and the `turnEnd` after it. One rating per player
    /// per turn, which it may change; every change sends the counts to the room.
    mutating func rate(_ rating: Rating?, from id: PlayerID) -> Result<[RoomEffect], ProtocolError> {
        guard phase == .drawing || phase == .turnEnd, var rated = ratedTurn else {
            return .failure(ProtocolError(.wrongPhase, "drawings are rated while drawn and at the turn's end"))
        }
        guard let sender = member(id), id != rated.drawer, !sender.spectator else {
            return .failure(ProtocolError(.notGuesser, "only the turn's guessers rate its drawing"))
        }
        guard rated.ratings[id] != rating else { return .success([]) }
        rated.ratings[id] = rating
        ratedTurn = rated
        let counts = rated.counts
        var effects: [RoomEffect] = [.send(.ratings(counts), to: .everyone)]
        // During turnEnd the turn is already stored: its record is updated.
        if phase == .turnEnd {
            effects.append(.turnRated(TurnRating(roomCode: code, game: rated.game, turn: rated.turn, counts: counts)))
        }
        return .success(effects)
    }

    /// The counts shown in `room` messages: only while the turn can be rated.
    var visibleRatings: RatedTurn? {
        phase == .drawing || phase == .turnEnd ? ratedTurn : nil
    }
}
