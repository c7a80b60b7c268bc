import Canvas
import DrawProtocol
extension Room {
    /// The earliest time `tick` has something to do; nil when only a message can change anything.
    public var nextDeadline: Timestamp? {
        var candidates: [Timestamp] = []
        switch state {
        case .lobby: if let nextGameAt { candidates.append(nextGameAt) }
        case .choosing(let choosing): candidates.append(choosing.deadline)
        case .drawing(let turn):
            candidates.append(turn.deadline)
            if let next = turn.pendingHints.first { candidates.append(turn.startedAt + next) }
        case .turnEnd(let deadline, _), .gameEnd(let deadline): candidates.append(deadline)
        case .telephone(let game): candidates.append(game.deadline)
        case .album(let album): candidates.append(album.deadline)
        }
        if let drawer, let since = member(drawer)?.disconnectedAt {
            candidates.append(since + configuration.drawerAbsenceMs)
        }
        for m in members {
            if let since = m.disconnectedAt { candidates.append(since + configuration.graceMs) }
        }
        return candidates.min()
    }

    /// Carries out everything due at `now`: grace expiries, an absent drawer, hints, phase deadlines.
    public mutating func tick(now: Timestamp) -> [RoomEffect] {
        var effects: [RoomEffect] = []
        // Each step may change the state; loop until nothing more is due (bounded: every
        // step removes a member or moves the phase on).
        for _ in 0..<64 {
            guard let step = dueStep(now: now) else { break }
            effects += step
        }
        return effects
    }

    private mutating func dueStep(now: Timestamp) -> [RoomEffect]? {
        if let expired = members.first(where: { ($0.disconnectedAt.map { $0 + configuration.graceMs } ?? .init(milliseconds: .max)) <= now }) {
            return remove(expired.id, now: now, notice: nil)
        }
        if let drawer, let since = member(drawer)?.disconnectedAt, since + configuration.drawerAbsenceMs <= now {
            return drawerGone(now: now)
        }
        switch state {
        case .lobby:
            guard let nextGameAt, nextGameAt <= now else { return nil }
            return nextGameCountdownEnded(now: now)
        case .choosing(let choosing):
            guard choosing.deadline <= now else { return nil }
            // No choice in time: the server picks.
            let pick = choosing.words.isEmpty ? 0 : Int.random(in: 0..<choosing.words.count, using: &rng)
            let word = choosing.words.isEmpty ? "drawing" : choosing.words[pick]
            return startDrawing(word: word, drawer: choosing.drawer, now: now)
        case .drawing(var turn):
            if turn.deadline <= now { return endTurn(.time, now: now) }
            guard let next = turn.pendingHints.first, turn.startedAt + next <= now else { return nil }
            turn.pendingHints.removeFirst()
            guard turn.mask.reveal(using: &rng) else {
                state = .drawing(turn)
                return []
            }
            state = .drawing(turn)
            return [.send(.hint(mask: turn.mask.rendered()), to: .everyoneExcept(turn.drawer))]
        case .turnEnd(let deadline, _):
            return deadline <= now ? startNextTurn(now: now) : nil
        case .gameEnd(let deadline):
            return deadline <= now ? returnToLobby(now: now) : nil
        case .telephone(let game):
            return game.deadline <= now ? endPhoneStep(now: now) : nil
        case .album(let album):
            return album.deadline <= now ? endTelephone(now: now) : nil
        }
    }
}
