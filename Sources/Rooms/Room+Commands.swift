import Canvas
import DrawProtocol
extension Room {
    /// Handles a room-level message from a member. Lobby-level messages (hello, rooms,
    /// create, join, quickplay, leave, invite) are the lobby's; sent here they are ignored.
    /// Errors come back as an `error` effect addressed to the sender.
    public mutating func handle(_ message: ClientMessage, from id: PlayerID, now: Timestamp) -> [RoomEffect] {
        guard isMember(id) else {
            return [reply(id, ProtocolError(.notInRoom, "you are not in a room", ref: message.type))]
        }
        let result: Result<[RoomEffect], ProtocolError>
        switch message {
        case .settings(let patch): result = updateSettings(patch, from: id, now: now)
        case .ready(let ready): result = setReady(ready, from: id, now: now)
        case .start: result = requestStart(from: id, now: now)
        case .kick(let target): result = kick(target, by: id, now: now)
        case .votekick(let target): result = voteKick(target, by: id, now: now)
        case .spectate(let on): result = spectate(on, from: id, now: now)
        case .chat(let text): result = chat(text, from: id, now: now, explicitGuess: false)
        case .guess(let text): result = chat(text, from: id, now: now, explicitGuess: true)
        case .choose(let index): result = choose(index, from: id, now: now)
        case .skip: result = skip(from: id, now: now)
        case .rate(let rating): result = rate(rating, from: id)
        case .addBot(let level): result = addBot(level, from: id, now: now)
        case .removeBot(let target): result = removeBot(target, from: id, now: now)
        case .phoneSubmit(let text): result = phoneSubmit(text, from: id, now: now)
        case .albumNext: result = albumNext(from: id, now: now)
        case .hello, .rooms, .create, .join, .quickplay, .leave, .invite, .gallery, .report: result = .success([])
        }
        switch result {
        case .success(let effects):
            // Chat lines are kept, with their audience, for the history of a resuming player.
            switch message {
            case .chat, .guess: recordChat(effects)
            default: break
            }
            return effects
        case .failure(let error): return [reply(id, error.referencing(message.type))]
        }
    }

    func reply(_ id: PlayerID, _ error: ProtocolError) -> RoomEffect { .send(.error(error), to: .player(id)) }

    mutating func updateSettings(_ patch: SettingsPatch, from id: PlayerID, now: Timestamp) -> Result<[RoomEffect], ProtocolError> {
        guard host == id else { return .failure(ProtocolError(.notHost, "only the host can change settings")) }
        guard phase == .lobby else { return .failure(ProtocolError(.wrongPhase, "settings can change only in the lobby")) }
        if patch.mode == .telephone, botCount > 0 {
            return .failure(ProtocolError(.badMessage, "bots cannot play telephone: remove the bots first"))
        }
        let adjusted = settings.adjustments(for: patch)
        settings = settings.applying(patch)
        // Lowering maxPlayers never evicts anyone: it only stops new joins.
        var effects = roomBroadcast(now: now)
        // Said, not silently clamped: the host learns which values were used instead.
        if !adjusted.isEmpty { effects.append(.send(.notice(.settingsAdjusted(adjusted)), to: .player(id))) }
        return .success(effects)
    }

    mutating func setReady(_ ready: Bool, from id: PlayerID, now: Timestamp) -> Result<[RoomEffect], ProtocolError> {
        // During `gameEnd` too: "Play again" on the podium.
        guard phase == .lobby || phase == .gameEnd, let i = index(of: id) else {
            return .failure(ProtocolError(.wrongPhase, "ready counts only in the lobby and after a game"))
        }
        members[i].ready = ready
        var effects: [RoomEffect] = [.send(.ready(id, ready), to: .everyone)]
        effects += maybeAutoStart(now: now)
        return .success(effects)
    }

    mutating func requestStart(from id: PlayerID, now: Timestamp) -> Result<[RoomEffect], ProtocolError> {
        guard host == id else { return .failure(ProtocolError(.notHost, "only the host can start the game")) }
        guard phase == .lobby else { return .failure(ProtocolError(.wrongPhase, "a game is already running")) }
        let needed = minimumPlayers
        guard activePlayers(connectedOnly: true).count >= needed else {
            let game = isTelephone ? "a telephone game" : "the game"
            return .failure(ProtocolError(.notEnoughPlayers, "at least \(needed) connected players are needed to start \(game)"))
        }
        return .success(startGame(now: now))
    }

    /// Starts when every seated player (at least 2) is ready.
    mutating func maybeAutoStart(now: Timestamp) -> [RoomEffect] {
        guard phase == .lobby, !isClosed else { return [] }
        let players = members.filter { !$0.spectator }
        guard players.count >= minimumPlayers, players.allSatisfy(\.ready),
              activePlayers(connectedOnly: true).count >= minimumPlayers else { return [] }
        return startGame(now: now)
    }

    mutating func kick(_ target: PlayerID, by id: PlayerID, now: Timestamp) -> Result<[RoomEffect], ProtocolError> {
        guard host == id else { return .failure(ProtocolError(.notHost, "only the host can kick")) }
        guard target != id else { return .failure(ProtocolError(.badMessage, "you cannot kick yourself; use leave")) }
        guard isMember(target) else { return .failure(ProtocolError(.notInRoom, "that player is not in this room")) }
        return .success(expel(target, now: now))
    }

    /// Removes a player as a kick does: it gets `kicked` and is banned from rejoining for a
    /// while; the room is told why (`left.reason`).
    public mutating func expel(_ target: PlayerID, reason: LeaveReason = .kicked, now: Timestamp) -> [RoomEffect] {
        guard isMember(target) else { return [] }
        bans = bans.filter { $0.value > now }
        bans[target] = now + configuration.kickBanMs
        return remove(target, now: now, notice: .kicked(code: code), reason: reason)
    }

    mutating func voteKick(_ target: PlayerID, by id: PlayerID, now: Timestamp) -> Result<[RoomEffect], ProtocolError> {
        guard target != id else { return .failure(ProtocolError(.badMessage, "you cannot vote to kick yourself")) }
        guard isMember(target) else { return .failure(ProtocolError(.notInRoom, "that player is not in this room")) }
        votes[target, default: []].insert(id)
        // Bots never vote, so they do not count toward the votes needed either.
        let voters = members.filter { $0.connected && !$0.isBot && $0.id != target }.map(\.id)
        let count = votes[target, default: []].filter(voters.contains).count
        let needed = voters.count / 2 + 1
        var effects: [RoomEffect] = [.send(.votekick(target: target, votes: count, needed: needed), to: .everyone)]
        if count >= needed {
            effects += expel(target, reason: .votekicked, now: now)
        }
        return .success(effects)
    }

    mutating func spectate(_ on: Bool, from id: PlayerID, now: Timestamp) -> Result<[RoomEffect], ProtocolError> {
        guard let i = index(of: id) else { return .failure(ProtocolError(.notInRoom, "you are not in a room")) }
        if members[i].watching {
            return .failure(ProtocolError(.badMessage, "a screen that watches takes no seat; join again without watch to play"))
        }
        if !on, members[i].spectator, seatedCount >= settings.maxPlayers {
            return .failure(ProtocolError(.roomFull, "no free seat; stay a spectator for now"))
        }
        let inGame = phase != .lobby && phase != .gameEnd
        if on && inGame {
            // Takes effect at the next turn so the current one is not disturbed.
            members[i].pendingSpectator = true
        } else {
            members[i].spectator = on
            members[i].pendingSpectator = nil
            if on { members[i].ready = false }
        }
        // The last one not ready stepping aside leaves everyone seated ready (bots, say).
        return .success(roomBroadcast(now: now) + maybeAutoStart(now: now))
    }

    mutating func choose(_ choice: Int, from id: PlayerID, now: Timestamp) -> Result<[RoomEffect], ProtocolError> {
        guard case .choosing(let choosing) = state else {
            return .failure(ProtocolError(.wrongPhase, "there is no word to choose now"))
        }
        guard choosing.drawer == id else { return .failure(ProtocolError(.notDrawer, "only the drawer chooses the word")) }
        guard choosing.words.indices.contains(choice) else {
            return .failure(ProtocolError(.badMessage, "index must be 0...\(choosing.words.count - 1)"))
        }
        return .success(startDrawing(word: choosing.words[choice], drawer: id, now: now))
    }

    mutating func skip(from id: PlayerID, now: Timestamp) -> Result<[RoomEffect], ProtocolError> {
        guard case .drawing(let turn) = state else {
            return .failure(ProtocolError(.wrongPhase, "only a drawing turn can be skipped"))
        }
        guard turn.drawer == id else { return .failure(ProtocolError(.notDrawer, "only the drawer can skip")) }
        return .success(endTurn(.skipped, now: now))
    }

    /// Seated players who take turns and guess; optionally only those connected.
    /// Seated players a game of the room's mode needs.
    var minimumPlayers: Int { isTelephone ? Self.telephoneMinimumPlayers : 2 }

    func activePlayers(connectedOnly: Bool) -> [Member] {
        members.filter { !$0.spectator && (!connectedOnly || $0.connected) }
    }
}
