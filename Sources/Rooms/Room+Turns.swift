import Canvas
import DrawProtocol

extension Room {
    mutating func startGame(now: Timestamp) -> [RoomEffect] {
        if isTelephone { return startTelephone(now: now) }
        beginGame()
        let bag = WordBag.forGame(
            language: settings.language, settingsCustomWords: settings.customWords, customOnly: settings.customOnly, rng: &rng
        )
        game = GameProgress(number: gamesPlayed, pendingDrawers: drawerQueue(), bag: bag)
        return startNextTurn(now: now)
    }

    /// What every new game starts from, in either mode: its number, scores at zero, no
    /// votes, no drawings yet, no countdown.
    mutating func beginGame() {
        gamesPlayed += 1
        for i in members.indices {
            members[i].score = 0
            members[i].guessed = false
        }
        votes.removeAll()
        gameDrawings.removeAll()
        nextGameAt = nil
    }

    /// Seated players in seat order: one round's drawers.
    func drawerQueue() -> [PlayerID] { members.filter { !$0.spectator }.map(\.id) }

    /// Picks the next drawer (skipping players gone or disconnected, and bots with no fresh
    /// word to draw, which pass), or ends the game.
    mutating func startNextTurn(now: Timestamp) -> [RoomEffect] {
        guard var progress = game else { return [] }
        applyPendingSpectators()
        for i in members.indices { members[i].guessed = false }
        guard activePlayers(connectedOnly: false).count >= 2 else { return endGame(now: now) }

        var effects: [RoomEffect] = []
        var drawer: PlayerID
        var words: [String]
        while true {
            if progress.pendingDrawers.isEmpty {
                progress.round += 1
                progress.pendingDrawers = drawerQueue()
                // Past the last round, or nobody connected could draw: the game is over.
                guard progress.round <= settings.rounds,
                      progress.pendingDrawers.contains(where: { member($0)?.connected == true }) else {
                    game = progress
                    return effects + endGame(now: now)
                }
            }
            drawer = progress.pendingDrawers.removeFirst()
            guard let m = member(drawer), !m.spectator, m.connected else { continue }
            words = offer(for: m, in: &progress)
            if !words.isEmpty { break }
            // A bot with nothing fresh it can draw passes, as a drawer who left would.
            effects += botPassed(m)
        }
        resetCanvas()
        progress.turn += 1
        game = progress
        let deadline = now + configuration.chooseMs
        state = .choosing(ChoosingState(drawer: drawer, words: words, deadline: deadline))
        ratedTurn = nil
        effects += roomBroadcast(now: now)
        effects.append(.send(.choosing(drawer: drawer, remainingMs: configuration.chooseMs), to: .everyoneExcept(drawer)))
        effects.append(.send(.choose(words: words, remainingMs: configuration.chooseMs), to: .player(drawer)))
        return effects
    }

    /// The words offered to `drawer`: none drawn in this game while the bag holds unused
    /// ones (once every word is used they all come back). A bot gets only words it has a
    /// drawing for, possibly none; a person always gets at least one.
    mutating func offer(for drawer: Member, in progress: inout GameProgress) -> [String] {
        let used = progress
        if !progress.bag.hasWord(where: { !used.isUsed($0) }) { progress.usedWords.removeAll() }
        let cycle = progress
        if drawer.isBot {
            var fresh = botWords().filter { !cycle.isUsed($0) }
            rng.shuffle(&fresh)
            return Array(fresh.prefix(max(1, settings.wordChoices)))
        }
        return progress.bag.draw(settings.wordChoices, rng: &rng, skipping: { cycle.isUsed($0) })
    }

    mutating func applyPendingSpectators() {
        for i in members.indices {
            if let pending = members[i].pendingSpectator {
                members[i].spectator = pending
                members[i].pendingSpectator = nil
            }
        }
    }

    mutating func resetCanvas() {
        canvasGeneration += 1
        drawing.reset()
        strokeLog = StrokeLog(size: configuration.canvas)
        strokeLogBytes = 0
    }

    mutating func startDrawing(word: String, drawer: PlayerID, now: Timestamp) -> [RoomEffect] {
        let mask = WordMask(word: word)
        let drawMs = configuration.drawMs ?? settings.drawTimeSec * 1000
        let hints = HintSchedule(hints: settings.hints, letterCount: mask.letterPositions.count, drawTimeMs: drawMs)
        let turn = DrawingTurn(
            drawer: drawer, judge: WordJudge(word: word), mask: mask,
            startedAt: now, deadline: now + drawMs, pendingHints: hints.revealTimesMs
        )
        state = .drawing(turn)
        game?.usedWords.append(word)
        strokeLog.word = word
        ratedTurn = RatedTurn(drawer: drawer, game: game?.number ?? gamesPlayed, turn: game?.turn ?? 0)
        let round = game?.round ?? 1
        let masked = mask.rendered()
        var effects: [RoomEffect] = [
            .send(.turn(drawer: drawer, round: round, mask: masked, remainingMs: drawMs, word: nil), to: .everyoneExcept(drawer)),
            .send(.turn(drawer: drawer, round: round, mask: masked, remainingMs: drawMs, word: word), to: .player(drawer)),
        ]
        effects += roomBroadcast(now: now)
        return effects
    }

    /// Ends the drawing turn: the drawer's share, `turnEnd` with every delta, a record to keep.
    mutating func endTurn(_ reason: TurnEndReason, now: Timestamp) -> [RoomEffect] {
        guard case .drawing(let turn) = state else { return [] }
        var scores: [PlayerID: Int] = [:]
        for m in members where !m.spectator || m.guessed { scores[m.id] = 0 }
        for guess in turn.guesses { scores[guess.id] = guess.points }
        let guesserCount = max(1, activePlayers(connectedOnly: false).count - (isMember(turn.drawer) ? 1 : 0))
        let drawerPoints = Scoring.drawerPoints(guesserPoints: turn.guesses.map(\.points), guesserCount: guesserCount)
        if let i = index(of: turn.drawer) {
            members[i].score += drawerPoints
            scores[turn.drawer] = drawerPoints
        }
        state = .turnEnd(deadline: now + configuration.turnEndMs, word: turn.word)
        logEvent(.event(.reveal, word: turn.word, reason: reason))
        let ratings = ratedTurn?.counts ?? RatingCounts()
        // Only a kept turn (in a game) with something on the canvas gets images.
        let drawingID = game != nil && !drawing.isEmpty ? DrawingID.random(using: &drawingIDs) : nil
        var effects: [RoomEffect] = [.send(
            .turnEnd(word: turn.word, reason: reason, scores: scores, ratings: ratings, drawing: drawingID), to: .everyone
        )]
        if let progress = game, let drawingID {
            gameDrawings.append(GameDrawing(
                id: drawingID, word: turn.word, drawer: turn.drawer, name: member(turn.drawer)?.name ?? "", round: progress.round
            ))
        }
        if let progress = game {
            effects.append(.turnFinished(TurnRecord(
                roomCode: code, game: progress.number, turn: progress.turn, round: progress.round,
                drawer: turn.drawer, word: turn.word, reason: reason, scores: scores, strokes: strokeLog,
                ratings: ratings, drawing: drawingID, isPublic: isPublic, language: settings.language,
                drawerName: member(turn.drawer)?.name ?? ""
            )))
        }
        effects += roomBroadcast(now: now)
        return effects
    }

    /// The drawer left or stayed away: end its turn, or pass the choice on.
    mutating func drawerGone(now: Timestamp) -> [RoomEffect] {
        switch state {
        case .drawing: return endTurn(.drawerLeft, now: now)
        case .choosing: return startNextTurn(now: now)
        default: return []
        }
    }

    mutating func endGame(now: Timestamp) -> [RoomEffect] {
        let ranked = members.filter { !$0.spectator }.sorted { a, b in
            a.score != b.score ? a.score > b.score : a.order < b.order
        }
        var ranking: [RankEntry] = []
        for (i, m) in ranked.enumerated() {
            let place = i > 0 && ranking[i - 1].score == m.score ? ranking[i - 1].place : i + 1
            ranking.append(RankEntry(id: m.id, name: m.name, score: m.score, place: place, avatar: m.avatar, bot: m.isBot ? true : nil))
        }
        let number = game?.number ?? gamesPlayed
        game = nil
        ratedTurn = nil
        // People say again whether they play on ("Play again" is `ready`), from now on.
        for i in members.indices { members[i].ready = members[i].isBot }
        state = .gameEnd(deadline: now + configuration.gameEndMs)
        var effects: [RoomEffect] = [
            .send(.gameEnd(ranking: ranking), to: .everyone),
            .gameFinished(GameRecord(roomCode: code, game: number, ranking: ranking)),
        ]
        effects += roomBroadcast(now: now)
        return effects
    }

    /// Back to the lobby after `gameEnd`: the canvas is cleared only now (players still see
    /// the last drawing on the podium, and so does a moderator's thumbnail), ready flags
    /// set since the game ended stay, and the countdown to the next game starts.
    mutating func returnToLobby(now: Timestamp) -> [RoomEffect] {
        state = .lobby
        gameDrawings.removeAll()
        resetCanvas()
        for i in members.indices { members[i].guessed = false }
        applyPendingSpectators()
        if configuration.nextGameMs > 0, seatedCount >= 2 { nextGameAt = now + configuration.nextGameMs }
        return roomBroadcast(now: now) + maybeAutoStart(now: now)
    }

    /// The countdown ended: with at least two connected seated players ready, one of them
    /// a person, the game starts and those who did not tap "Play again" watch it as
    /// spectators (one `spectate` takes the seat back). Otherwise the room stays in its
    /// lobby, without a countdown: bots alone never play on for a person who walked away.
    mutating func nextGameCountdownEnded(now: Timestamp) -> [RoomEffect] {
        nextGameAt = nil
        let ready = members.filter { !$0.spectator && $0.ready && $0.connected }
        guard ready.count >= 2, ready.contains(where: { !$0.isBot }) else { return roomBroadcast(now: now) }
        for i in members.indices where !members[i].spectator && !members[i].ready {
            members[i].spectator = true
            members[i].pendingSpectator = nil
        }
        return startGame(now: now)
    }
}
