import Canvas
import DrawProtocol

/// One game room: members, settings, phases, turns, chat judging, scoring and the
/// current drawing.
///
/// A value type driven by events. Every mutating method takes the current time and
/// returns the effects the I/O shell must carry out; the room never reads a clock or
/// touches a socket, and all randomness comes from its own seeded generator, so a game
/// replays exactly from a seed.
public struct Room: Sendable {
    public let code: RoomCode
    public internal(set) var name: String
    public internal(set) var isPublic: Bool
    public internal(set) var host: PlayerID?
    public internal(set) var settings: RoomSettings
    /// Members in seat order.
    public internal(set) var members: [Member] = []
    public let configuration: RoomConfiguration
    /// True once a moderator closed the room or its last member left.
    public internal(set) var isClosed = false

    var state: RoomPhaseState = .lobby
    var game: GameProgress?
    var gamesPlayed = 0
    var nextOrder = 0
    var bans: [PlayerID: Timestamp] = [:]
    /// Votekick ballots: target -> voters.
    var votes: [PlayerID: Set<PlayerID>] = [:]
    var rng: SeededRandom
    /// Where drawing ids come from: not `rng`, whose 64-bit seed cannot make 132-bit
    /// capabilities; the system generator unless a test or seeded server injects one.
    public var drawingIDs: RandomSource = .system
    /// The current turn's canvas and the frames that drew it.
    public internal(set) var drawing: Drawing
    public internal(set) var strokeLog: StrokeLog
    /// Bytes in `strokeLog`, bounded by `configuration.maxTurnLogBytes`.
    var strokeLogBytes = 0
    /// The turn whose drawing can be rated (drawing and its turnEnd).
    var ratedTurn: RatedTurn?
    /// Chat lines kept for `chatHistory`, oldest first, with who may see each.
    var chatLog: [ChatLine] = []
    /// Sequence number of the next chat line.
    var chatSequence = 0
    /// The words bots can draw (injected by the shell; empty: bot drawers get ordinary choices).
    public var botVocabulary = BotVocabulary()
    /// When the lobby's countdown to the next game ends (after a game; nil when none runs).
    var nextGameAt: Timestamp?
    /// The current (or just ended) game's finished turns that left a drawing, oldest first.
    var gameDrawings: [GameDrawing] = []
    /// Counts canvas resets, so stored stroke rows of an earlier turn are told apart.
    public internal(set) var canvasGeneration = 0

    public init(
        code: RoomCode, name: String, isPublic: Bool, settings: RoomSettings,
        configuration: RoomConfiguration = RoomConfiguration(), seed: UInt64
    ) {
        self.code = code
        self.name = name
        self.isPublic = isPublic
        self.settings = settings
        self.configuration = configuration
        self.rng = SeededRandom(seed: seed)
        self.drawing = Drawing(size: configuration.canvas)
        self.strokeLog = StrokeLog(size: configuration.canvas)
    }

    public var phase: GamePhase { state.phase }

    /// Members holding a seat (not spectating); they count against `maxPlayers`.
    public var seatedCount: Int { members.lazy.filter { !$0.spectator }.count }

    /// The current drawer, in phases `choosing` and `drawing`.
    public var drawer: PlayerID? {
        switch state {
        case .choosing(let choosing): choosing.drawer
        case .drawing(let turn): turn.drawer
        default: nil
        }
    }

    public func member(_ id: PlayerID) -> Member? { members.first { $0.id == id } }
    public func isMember(_ id: PlayerID) -> Bool { members.contains { $0.id == id } }
    func index(of id: PlayerID) -> Int? { members.firstIndex { $0.id == id } }

    /// Spectators do not count; the total is still bounded so spectating cannot grow a room without limit.
    var memberLimit: Int { settings.maxPlayers * 2 }

    // MARK: - Membership

    /// Seats a player (join, quickplay, create). Errors: `room_full`, `banned`, `already_in_room`, `room_not_found`.
    /// `watching`: a screen that watches (`join` with `watch`): it takes no seat, so a full
    /// room still lets it in (up to `memberLimit` members in all), and it never hosts.
    public mutating func join(
        _ id: PlayerID, name: String, avatar: Avatar? = nil, watching: Bool = false, now: Timestamp
    ) -> Result<[RoomEffect], ProtocolError> {
        guard !isClosed else { return .failure(ProtocolError(.roomNotFound, "room \(code) is closed")) }
        guard !isMember(id) else { return .failure(ProtocolError(.alreadyInRoom, "you are already in room \(code)")) }
        if let until = bans[id], until > now {
            let minutes = max(1, (until - now + 59_999) / 60_000)
            return .failure(ProtocolError(.banned, "you were kicked from this room; try again in \(minutes) min"))
        }
        guard watching || seatedCount < settings.maxPlayers, members.count < memberLimit else {
            return .failure(ProtocolError(.roomFull, "room \(code) is full"))
        }
        var member = Member(id: id, name: name, order: nextOrder, avatar: avatar)
        member.chatSince = chatSequence
        nextOrder += 1
        if watching {
            member.watching = true
            member.spectator = true
        } else if phase != .lobby && phase != .gameEnd {
            // Joins mid-game: guesses from this turn, draws from the next round.
            member.ready = true
        }
        members.append(member)
        if host == nil && !watching { host = id }
        var effects: [RoomEffect] = [
            .send(.joined(member.view), to: .everyone),
        ]
        effects += roomBroadcast(now: now)
        effects += canvasReplay(for: id)
        // A seat of the game that left and joins again gets its step back, like one that
        // comes back with its token; anyone else what the room was told so far.
        effects += resendTelephoneState(to: id, now: now)
        effects += maybeAutoStart(now: now)
        return .success(effects)
    }

    /// Leaves now (the `leave` message), freeing the seat.
    public mutating func leave(_ id: PlayerID, now: Timestamp) -> [RoomEffect] {
        guard isMember(id) else { return [] }
        return remove(id, now: now, notice: nil)
    }

    /// A member's connection came back (resume with its token), with the avatar its
    /// `hello` left it with (nil keeps the one the room has).
    public mutating func connect(_ id: PlayerID, avatar: Avatar? = nil, now: Timestamp) -> [RoomEffect] {
        guard let i = index(of: id) else { return [] }
        if let avatar { members[i].avatar = avatar }
        members[i].connected = true
        members[i].disconnectedAt = nil
        var effects: [RoomEffect] = roomBroadcast(now: now)
        // Right after `room` and before the turn's own message and the canvas.
        effects.append(chatHistoryEffect(for: id))
        if let drawings = gameDrawingsEffect(for: id) { effects.append(drawings) }
        effects += resendTurnState(to: id, now: now)
        effects += canvasReplay(for: id)
        return effects
    }

    /// A member's connection dropped; its seat is held for the grace period.
    public mutating func disconnect(_ id: PlayerID, now: Timestamp) -> [RoomEffect] {
        guard let i = index(of: id), members[i].connected else { return [] }
        members[i].connected = false
        members[i].disconnectedAt = now
        var effects = roomBroadcast(now: now)
        effects += endTurnIfEveryoneGuessed(now: now)
        return effects
    }

    /// Closes the room for a moderator: everyone gets `closed` and is released.
    public mutating func close() -> [RoomEffect] {
        guard !isClosed else { return [] }
        isClosed = true
        var effects: [RoomEffect] = [.send(.closed(code: code), to: .everyone)]
        effects += members.map { .released($0.id) }
        members.removeAll()
        host = nil
        state = .lobby
        game = nil
        return effects
    }

    /// Removes a member: `left` to the room (and to the leaver), host hand-over, turn consequences.
    mutating func remove(_ id: PlayerID, now: Timestamp, notice: ServerMessage?, reason: LeaveReason = .left) -> [RoomEffect] {
        guard let i = index(of: id) else { return [] }
        let wasDrawer = drawer == id
        var effects: [RoomEffect] = [.send(.left(id, reason: reason), to: .everyone)]
        if let notice { effects.append(.send(notice, to: .player(id))) }
        members.remove(at: i)
        effects.append(.released(id))
        votes[id] = nil
        for target in votes.keys { votes[target]?.remove(id) }
        if host == id { host = nextHost() }
        if game != nil { game?.pendingDrawers.removeAll { $0 == id } }
        if members.isEmpty {
            isClosed = true
            state = .lobby
            game = nil
            return effects
        }
        // Bots do not keep a room alive: with the last person gone it closes.
        if let closing = closeIfOnlyBots() { return effects + closing }
        if wasDrawer {
            effects += drawerGone(now: now)
        } else {
            effects += endTurnIfEveryoneGuessed(now: now)
        }
        effects += roomBroadcast(now: now)
        effects += maybeAutoStart(now: now)
        return effects
    }

    /// The longest-seated person, preferring connected players and players over spectators;
    /// never a bot.
    func nextHost() -> PlayerID? {
        let ranked = members.filter { !$0.isBot && !$0.watching }.sorted { a, b in
            if a.connected != b.connected { return a.connected }
            if a.spectator != b.spectator { return !a.spectator }
            return a.order < b.order
        }
        return ranked.first?.id
    }
}
