import Canvas
import DrawProtocol
import Foundation

extension Room {
    /// Chat, and during `drawing` a guess (protocol section 4, Judging).
    mutating func chat(_ raw: String, from id: PlayerID, now: Timestamp, explicitGuess: Bool) -> Result<[RoomEffect], ProtocolError> {
        let text = Self.cleanChat(raw)
        guard !text.isEmpty else { return .failure(ProtocolError(.badMessage, "the text is empty")) }
        guard text.count <= configuration.maxChatCharacters else {
            return .failure(ProtocolError(.tooLarge, "chat is limited to \(configuration.maxChatCharacters) characters"))
        }
        guard let sender = member(id) else { return .failure(ProtocolError(.notInRoom, "you are not in a room")) }
        let line = ServerMessage.chat(from: id, name: sender.name, text: text)

        guard case .drawing(var turn) = state else {
            if explicitGuess { return .failure(ProtocolError(.wrongPhase, "guesses count only while someone draws")) }
            return .success([.send(line, to: .everyone)])
        }
        // Those who know the word talk among themselves so they cannot leak it.
        if id == turn.drawer || sender.guessed {
            return .success([.send(line, to: .players(knowers(turn)))])
        }
        switch turn.judge.judge(text) {
        case .correct:
            if sender.spectator {
                return .success([.send(line, to: .player(id))])
            }
            return .success(acceptGuess(from: id, turn: &turn, now: now))
        case .close:
            if sender.spectator { return .success([.send(line, to: .player(id))]) }
            logEvent(.event(.close, from: id, name: sender.name, text: text, visibleTo: [id]))
            return .success([.send(.close(text: text), to: .player(id))])
        case .wrong:
            return .success([.send(line, to: .everyone)])
        }
    }

    /// The drawer and everyone who already guessed.
    func knowers(_ turn: DrawingTurn) -> [PlayerID] {
        members.filter { $0.id == turn.drawer || $0.guessed }.map(\.id)
    }

    mutating func acceptGuess(from id: PlayerID, turn: inout DrawingTurn, now: Timestamp) -> [RoomEffect] {
        guard let i = index(of: id) else { return [] }
        let guesserCount = max(1, activePlayers(connectedOnly: false).count - 1)
        let points = Scoring.guesserPoints(
            elapsedMs: max(0, now - turn.startedAt),
            drawTimeMs: configuration.drawMs ?? settings.drawTimeSec * 1000,
            guessOrder: turn.guesses.count,
            guesserCount: guesserCount
        )
        members[i].guessed = true
        members[i].score += points
        turn.guesses.append((id, points))
        state = .drawing(turn)
        logEvent(.event(.guessed, from: id, name: members[i].name))
        // The guesser's own copy names the word, so its client can show it (and keep it).
        var effects: [RoomEffect] = [
            .send(.guessed(id, points: points), to: .everyoneExcept(id)),
            .send(.guessed(id, points: points, word: turn.word), to: .player(id)),
        ]
        effects += endTurnIfEveryoneGuessed(now: now)
        return effects
    }

    /// Ends the turn once every connected guesser has guessed.
    ///
    /// With nobody connected to guess, the turn waits (they may come back within the
    /// grace period) unless someone already guessed; with no guessers at all left in
    /// the room it ends at once.
    mutating func endTurnIfEveryoneGuessed(now: Timestamp) -> [RoomEffect] {
        // A telephone step waits for those still connected: one who left may complete it.
        if case .telephone(let game) = state { return everyoneSubmitted(game) ? endPhoneStep(now: now) : [] }
        guard case .drawing(let turn) = state else { return [] }
        let guessers = members.filter { !$0.spectator && $0.id != turn.drawer }
        let connected = guessers.filter(\.connected)
        let everyoneGuessed = connected.allSatisfy(\.guessed) && (!connected.isEmpty || !turn.guesses.isEmpty)
        return guessers.isEmpty || everyoneGuessed ? endTurn(.allGuessed, now: now) : []
    }

    /// Trims, turns control characters and line breaks into spaces, and collapses space runs.
    static func cleanChat(_ raw: String) -> String {
        var out = ""
        out.reserveCapacity(raw.utf8.count)
        var lastWasSpace = true
        for scalar in raw.unicodeScalars {
            let isSpace = scalar.properties.isWhitespace || scalar.properties.generalCategory == .control
            if isSpace {
                if !lastWasSpace { out.append(" ") }
                lastWasSpace = true
            } else {
                out.unicodeScalars.append(scalar)
                lastWasSpace = false
            }
        }
        if out.hasSuffix(" ") { out.removeLast() }
        return out
    }
}
