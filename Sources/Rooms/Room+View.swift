import Canvas
import DrawProtocol
extension Room {
    /// The room as `viewer` sees it: only the drawer's copy carries the word, only the
    /// host's the custom words. During `drawing` and `turnEnd` every copy carries the
    /// ratings, and a player's own copy (`viewer` set) its `myRating`.
    public func view(for viewer: PlayerID?, now: Timestamp) -> RoomView {
        var drawerID: PlayerID?
        var mask: String?
        var word: String?
        var solvedWord: String?
        let solved = viewer.flatMap { member($0)?.guessed } == true
        switch state {
        case .choosing(let choosing):
            drawerID = choosing.drawer
        case .drawing(let turn):
            drawerID = turn.drawer
            mask = turn.mask.rendered()
            if viewer == turn.drawer { word = turn.word }
            if solved { solvedWord = turn.word }
        case .turnEnd(_, let ended):
            if solved { solvedWord = ended }
        default:
            break
        }
        let rated = visibleRatings
        return RoomView(
            code: code, name: name, isPublic: isPublic, host: host, settings: settings,
            phase: phase, round: game?.round ?? 0, rounds: settings.rounds,
            drawer: drawerID, mask: mask, word: word, remainingMs: remainingMs(now: now),
            players: members.map(\.view),
            canvasWidth: configuration.canvas.width, canvasHeight: configuration.canvas.height,
            ratings: rated?.counts, showsMyRating: viewer != nil,
            myRating: viewer.flatMap { rated?.ratings[$0] },
            showsCustomWords: viewer != nil && viewer == host, solvedWord: solvedWord,
            nextGameMs: phase == .lobby ? nextGameAt.map { max(0, $0 - now) } : nil
        )
    }

    /// Milliseconds left in the current phase (0 in the lobby).
    public func remainingMs(now: Timestamp) -> Int {
        switch state {
        case .lobby: 0
        case .choosing(let choosing): max(0, choosing.deadline - now)
        case .drawing(let turn): max(0, turn.deadline - now)
        case .turnEnd(let deadline, _), .gameEnd(let deadline): max(0, deadline - now)
        case .telephone(let game): max(0, game.deadline - now)
        case .album(let album): max(0, album.deadline - now)
        }
    }

    /// The public list entry.
    /// What the lobby lists. A streamer's room is never public there, whatever its host
    /// chose: its viewers must not find it in the list or through quick play.
    public var summary: RoomSummary {
        RoomSummary(
            code: code, name: name, isPublic: isPublic && !settings.streamer, players: seatedCount, maxPlayers: settings.maxPlayers, phase: phase,
            bots: members.lazy.filter(\.isBot).count, connected: members.lazy.filter { $0.connected && !$0.isBot }.count,
            language: settings.language, round: game?.round ?? 0, rounds: settings.rounds
        )
    }

    /// `room` to everyone: in `drawing` the drawer gets its own copy with the word, and the
    /// host one with the custom words; everyone else shares one copy, or, while the drawing
    /// can be rated, one copy per `myRating` (liked, disliked, not rated).
    func roomBroadcast(now: Timestamp) -> [RoomEffect] {
        guard !members.isEmpty else { return [] }
        var own: [PlayerID] = []
        if case .drawing(let turn) = state, isMember(turn.drawer) { own.append(turn.drawer) }
        // Those who guessed the word get it back in their copy (`solvedWord`).
        if phase == .drawing || phase == .turnEnd { own += members.filter(\.guessed).map(\.id).filter { !own.contains($0) } }
        if let host, isMember(host), !settings.customWords.isEmpty, !own.contains(host) { own.append(host) }
        var effects = own.map { RoomEffect.send(.room(view(for: $0, now: now)), to: .player($0)) }
        if let rated = visibleRatings {
            let others = members.map(\.id).filter { !own.contains($0) }
            for rating in [Rating?.none, .like, .dislike] {
                let group = others.filter { rated.ratings[$0] == rating }
                guard let first = group.first else { continue }
                // Everything else in a player's copy is the same for the whole group.
                var copy = view(for: nil, now: now)
                copy.showsMyRating = true
                copy.myRating = rated.ratings[first]
                effects.append(.send(.room(copy), to: group.count == others.count && own.isEmpty ? .everyone : .players(group)))
            }
            return effects
        }
        let shared = ServerMessage.room(view(for: nil, now: now))
        switch own.count {
        case 0: effects.append(.send(shared, to: .everyone))
        case 1: effects.append(.send(shared, to: .everyoneExcept(own[0])))
        default: effects.append(.send(shared, to: .players(members.map(\.id).filter { !own.contains($0) })))
        }
        return effects
    }

    /// `canvas` plus the compacted drawing, for a player arriving during `drawing` or `turnEnd`.
    func canvasReplay(for id: PlayerID) -> [RoomEffect] {
        guard phase == .drawing || phase == .turnEnd else { return [] }
        var effects: [RoomEffect] = [.send(.canvas(width: drawing.size.width, height: drawing.size.height), to: .player(id))]
        let frames = drawing.compactedFrames()
        if !frames.isEmpty { effects.append(.sendDrawing(frames: frames, to: id)) }
        return effects
    }

    /// After a resume into a running or just ended game: its drawings so far (`gameDrawings`).
    func gameDrawingsEffect(for id: PlayerID) -> RoomEffect? {
        guard phase != .lobby else { return nil }
        return .send(.gameDrawings(gameDrawings), to: .player(id))
    }

    /// After a resume: the phase's own message again, so a client can rebuild its turn UI.
    func resendTurnState(to id: PlayerID, now: Timestamp) -> [RoomEffect] {
        switch state {
        case .choosing(let choosing):
            let remaining = max(0, choosing.deadline - now)
            if choosing.drawer == id {
                return [.send(.choose(words: choosing.words, remainingMs: remaining), to: .player(id))]
            }
            return [.send(.choosing(drawer: choosing.drawer, remainingMs: remaining), to: .player(id))]
        case .drawing(let turn):
            return [.send(.turn(
                drawer: turn.drawer, round: game?.round ?? 1, mask: turn.mask.rendered(),
                remainingMs: max(0, turn.deadline - now), word: turn.drawer == id ? turn.word : nil
            ), to: .player(id))]
        case .telephone, .album:
            return resendTelephoneState(to: id, now: now)
        default:
            return []
        }
    }
}
