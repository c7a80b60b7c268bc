import Canvas
import DrawProtocol

// The telephone game (issue 36; docs/PROTOCOL.md, "Telephone mode"): the steps, the
// submissions, each player's own drawing in a draw step, and the album.
extension Room {
    /// Seated players a telephone game needs.
    public static let telephoneMinimumPlayers = 3
    /// A text's length in a write or describe step, after trimming.
    public static let phoneTextLimit = 1...100
    /// How long the album stays up if the host does not show it to the end.
    public static let albumPatienceMs = 600_000

    var isTelephone: Bool { settings.mode == .telephone }

    mutating func startTelephone(now: Timestamp) -> [RoomEffect] {
        let seats = members.filter { !$0.spectator && !$0.isBot }.map(\.id)
        guard seats.count >= Self.telephoneMinimumPlayers else { return roomBroadcast(now: now) }
        beginGame()
        ratedTurn = nil
        game = nil
        resetCanvas()
        state = .telephone(TelephoneState(
            seats: seats, startedAt: now, deadline: now + stepMs(.write), chains: Array(repeating: [], count: seats.count)
        ))
        return roomBroadcast(now: now) + phoneStepEffects(now: now)
    }

    func stepMs(_ kind: PhoneStepKind) -> Int {
        kind == .draw ? (configuration.drawMs ?? settings.drawTimeSec * 1000) : settings.writeTimeSec * 1000
    }

    /// Every seat's `phoneStep` for the step that starts, then the room's `phoneProgress`
    /// with nobody done yet: a watcher (the `/tv` screen, a spectator) gets no `phoneStep`,
    /// and learns from it that a step started and how long it runs.
    func phoneStepEffects(now: Timestamp) -> [RoomEffect] {
        guard case .telephone(let game) = state else { return [] }
        let steps: [RoomEffect] = game.seats.filter(isMember).compactMap { id in
            phoneStepMessage(for: id, in: game, now: now, resent: false).map { .send($0, to: .player(id)) }
        }
        return steps + [.send(phoneProgressMessage(game, now: now), to: .everyone)]
    }

    /// Who has handed in the step under way (in seat order, never what), and its time left.
    func phoneProgressMessage(_ game: TelephoneState, now: Timestamp) -> ServerMessage {
        .phoneProgress(step: game.step, done: game.seats.filter(game.submitted.contains), remainingMs: max(0, game.deadline - now))
    }

    func phoneStepMessage(for id: PlayerID, in game: TelephoneState, now: Timestamp, resent: Bool) -> ServerMessage? {
        guard game.seat(of: id) != nil else { return nil }
        let handed = game.handed(to: id)
        return .phoneStep(PhoneStep(
            step: game.step, steps: game.steps, kind: game.kind, remainingMs: max(0, game.deadline - now),
            prompt: game.kind == .draw ? (handed?.text ?? "") : nil,
            drawing: game.kind == .describe ? handed?.drawing : nil,
            submitted: resent ? game.submitted.contains(id) : nil
        ))
    }

    /// `phoneSubmit`: a write or describe step's text (a second one replaces the first
    /// while the step runs), or a draw step's "done" (a drawer may go on drawing until the
    /// step ends: what is on its canvas then counts).
    mutating func phoneSubmit(_ text: String?, from id: PlayerID, now: Timestamp) -> Result<[RoomEffect], ProtocolError> {
        guard case .telephone(var game) = state else {
            return .failure(ProtocolError(.wrongPhase, "phoneSubmit is for the steps of a telephone game"))
        }
        guard game.seat(of: id) != nil else {
            return .failure(ProtocolError(.wrongPhase, "you are not playing in this telephone game"))
        }
        if game.kind != .draw {
            let trimmed = Self.cleanChat(text ?? "")
            guard Self.phoneTextLimit.contains(trimmed.count) else {
                return .failure(ProtocolError(.badMessage, "text must be 1 to \(Self.phoneTextLimit.upperBound) characters"))
            }
            game.texts[id] = trimmed
        }
        let first = game.submitted.insert(id).inserted
        state = .telephone(game)
        var effects: [RoomEffect] = []
        if first { effects.append(.send(phoneProgressMessage(game, now: now), to: .everyone)) }
        if everyoneSubmitted(game) { effects += endPhoneStep(now: now) }
        return .success(effects)
    }

    /// Every seat still in the room and connected has submitted.
    func everyoneSubmitted(_ game: TelephoneState) -> Bool {
        game.seats.allSatisfy { id in
            game.submitted.contains(id) || !(member(id)?.connected ?? false)
        }
    }

    /// The step ends (all in, or time): each seat's entry goes on its chain (an unsent
    /// text as empty, a drawing as it stands), then the next step starts, or the album.
    mutating func endPhoneStep(now: Timestamp) -> [RoomEffect] {
        guard case .telephone(var game) = state else { return [] }
        var effects: [RoomEffect] = []
        for (seat, id) in game.seats.enumerated() {
            let chain = game.chain(seat: seat, step: game.step)
            switch game.kind {
            case .write, .describe:
                game.chains[chain].append(AlbumEntry(kind: .text, by: id, text: game.texts[id] ?? ""))
            case .draw:
                let sketch = game.sketches[id]
                let prompt = game.handed(to: id)?.text ?? ""
                var drawingID: DrawingID?
                if let sketch, !sketch.drawing.isEmpty {
                    let drawing = DrawingID.random(using: &drawingIDs)
                    drawingID = drawing
                    var log = StrokeLog(size: configuration.canvas, word: prompt)
                    log.frames = sketch.frames
                    effects.append(.turnFinished(TurnRecord(
                        roomCode: code, game: gamesPlayed, turn: game.step * game.steps + seat + 1, round: game.step,
                        drawer: id, word: prompt, reason: .time, scores: [:], strokes: log, drawing: drawing,
                        isPublic: isPublic && !settings.streamer, language: settings.language, drawerName: member(id)?.name ?? ""
                    )))
                }
                game.chains[chain].append(AlbumEntry(kind: .drawing, by: id, drawing: drawingID))
            }
        }
        game.step += 1
        game.texts = [:]
        game.submitted = []
        game.sketches = [:]
        if game.step >= game.steps {
            let album = zip(game.seats, game.chains).map { AlbumChain(owner: $0, entries: $1) }
            state = .album(AlbumState(chains: album, deadline: now + Self.albumPatienceMs))
            effects.append(.send(.album(album), to: .everyone))
            effects += roomBroadcast(now: now)
            return effects
        }
        game.startedAt = now
        game.deadline = now + stepMs(game.kind)
        state = .telephone(game)
        effects += phoneStepEffects(now: now)
        return effects
    }

    /// `albumNext` (host): the next entry, then the next chain; past the last entry of the
    /// last chain the room goes back to its lobby.
    mutating func albumNext(from id: PlayerID, now: Timestamp) -> Result<[RoomEffect], ProtocolError> {
        guard case .album(var album) = state else {
            return .failure(ProtocolError(.wrongPhase, "albumNext is for the album of a telephone game"))
        }
        guard host == id else { return .failure(ProtocolError(.notHost, "only the host shows the album")) }
        let entries = album.chains.indices.contains(album.chain) ? album.chains[album.chain].entries.count : 0
        if album.entry + 1 < entries {
            album.entry += 1
        } else if album.chain + 1 < album.chains.count {
            album.chain += 1
            album.entry = -1
        } else {
            return .success(endTelephone(now: now))
        }
        state = .album(album)
        return .success([.send(.albumReveal(chain: album.chain, entry: album.entry), to: .everyone)])
    }

    mutating func endTelephone(now: Timestamp) -> [RoomEffect] {
        for i in members.indices { members[i].ready = members[i].isBot }
        return returnToLobby(now: now)
    }

    /// A binary frame in a telephone game: only a seat's own drawing in a draw step, and
    /// relayed to nobody.
    mutating func sketch(frame: UnsafeRawBufferPointer, from id: PlayerID, now: Timestamp) -> DrawOutcome {
        guard case .telephone(var game) = state, game.kind == .draw, game.seat(of: id) != nil else {
            return .rejected(ProtocolError(.notDrawer, "in a telephone game you draw only in a draw step", ref: "binary"))
        }
        var sketch = game.sketches[id] ?? Sketch(size: configuration.canvas)
        do {
            var next = sketch.drawing
            let summary = try next.apply(frame: frame)
            if let refusal = capRefusal(points: next.pointCount, items: next.visibleItemCount, ink: next.ink) {
                return .rejected(refusal)
            }
            guard sketch.bytes + frame.count <= configuration.maxTurnLogBytes else {
                return .rejected(ProtocolError(.tooLarge, "this drawing is as large as a drawing can be; undo or clear to draw more", ref: "binary"))
            }
            sketch.drawing = next
            sketch.frames.append(StrokeLog.Frame(at: max(0, now - game.startedAt), bytes: Array(frame)))
            sketch.bytes += frame.count
            game.sketches[id] = sketch
            state = .telephone(game)
            return .kept(points: summary.points)
        } catch {
            return .rejected(ProtocolError(.badOps, "invalid drawing frame: \(error)", ref: "binary"))
        }
    }

    /// What a member who comes back during a telephone game is sent: a seat its step again
    /// (and its own drawing so far); everyone the step's progress, or the album as far as
    /// it was shown.
    func resendTelephoneState(to id: PlayerID, now: Timestamp) -> [RoomEffect] {
        guard case .telephone(let game) = state, let message = phoneStepMessage(for: id, in: game, now: now, resent: true) else {
            return telephoneProgressState(to: id, now: now)
        }
        var effects: [RoomEffect] = [.send(message, to: .player(id))]
        if game.kind == .draw, let sketch = game.sketches[id] {
            effects.append(.send(.canvas(width: sketch.drawing.size.width, height: sketch.drawing.size.height), to: .player(id)))
            let frames = sketch.drawing.compactedFrames()
            if !frames.isEmpty { effects.append(.sendDrawing(frames: frames, to: id)) }
        }
        return effects + telephoneProgressState(to: id, now: now)
    }

    /// What the room has been told of a telephone game so far, for a member who joins or
    /// comes back (a watching screen above all, which gets no `phoneStep`): during a step
    /// its `phoneProgress` (who has handed in, the time left); during the album `album`
    /// and `albumReveal` with how far the host has shown it.
    func telephoneProgressState(to id: PlayerID, now: Timestamp) -> [RoomEffect] {
        switch state {
        case .telephone(let game):
            return [.send(phoneProgressMessage(game, now: now), to: .player(id))]
        case .album(let album):
            return [
                .send(.album(album.chains), to: .player(id)),
                .send(.albumReveal(chain: album.chain, entry: album.entry), to: .player(id)),
            ]
        default:
            return []
        }
    }
}
