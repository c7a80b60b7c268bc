import Canvas
import DrawProtocol
@testable import Rooms

/// Drives a `Room` as the server would: resolves audiences to the connected members and
/// keeps every message each player received, with a clock the test moves by hand.
struct RoomHarness {
    var room: Room
    var now = Timestamp(milliseconds: 1_000)
    var inbox: [PlayerID: [ServerMessage]] = [:]
    var frames: [PlayerID: [[UInt8]]] = [:]
    var connected: Set<PlayerID> = []
    var turns: [TurnRecord] = []
    var games: [GameRecord] = []
    var released: [PlayerID] = []
    var ratingUpdates: [TurnRating] = []
    /// Bots seated so far, in order (`botSeated`).
    var bots: [PlayerID] = []
    /// Every chat line each member was allowed to see since it joined, connected or not
    /// (the room's members then, resolved like `recipients` but ignoring connections).
    /// Kept as `historyKey`s: chat lines and the game events history keeps.
    var allowedChat: [PlayerID: [String]] = [:]
    /// `chatHistory` messages that were not exactly the last lines their player was allowed to see.
    var historyMismatches: [String] = []

    init(settings: RoomSettings = RoomSettings(), configuration: RoomConfiguration = RoomConfiguration(), seed: UInt64 = 42) {
        room = Room(
            code: RoomCode(parsing: "ABCDEF")!, name: "Test room", isPublic: true,
            settings: settings, configuration: configuration, seed: seed
        )
    }

    static func id(_ name: String) -> PlayerID { PlayerID(name.lowercased()) }

    /// Joins players named like their ids ("ada" -> PlayerID("ada")).
    @discardableResult
    mutating func join(_ names: String...) -> [ProtocolError] {
        var errors: [ProtocolError] = []
        for name in names {
            let id = Self.id(name)
            switch room.join(id, name: name, now: now) {
            case .success(let effects):
                connected.insert(id)
                apply(effects)
            case .failure(let error):
                errors.append(error)
            }
        }
        return errors
    }

    /// Joins a screen that watches (`join` with `watch`), named like its id.
    mutating func watch(_ name: String) -> ProtocolError? {
        let id = Self.id(name)
        switch room.join(id, name: name, watching: true, now: now) {
        case .success(let effects):
            connected.insert(id)
            apply(effects)
            return nil
        case .failure(let error):
            return error
        }
    }

    mutating func send(_ message: ClientMessage, from name: String) {
        apply(room.handle(message, from: Self.id(name), now: now))
    }

    @discardableResult
    mutating func draw(_ ops: [DrawOperation], from name: String) -> DrawOutcome {
        var cursor = room.drawing.cursor
        let bytes = FrameCodec.encode(ops, cursor: &cursor)
        let outcome = room.draw(frame: bytes, from: Self.id(name), now: now)
        if case .relay(let sender, _) = outcome {
            for id in connected where id != sender { frames[id, default: []].append(bytes) }
        }
        return outcome
    }

    /// Sends as a member given by id (bots' ids are not names).
    mutating func send(_ message: ClientMessage, fromID id: PlayerID) {
        apply(room.handle(message, from: id, now: now))
    }

    mutating func leave(_ name: String) { apply(room.leave(Self.id(name), now: now)) }

    mutating func disconnect(_ name: String) {
        let id = Self.id(name)
        connected.remove(id)
        apply(room.disconnect(id, now: now))
    }

    mutating func reconnect(_ name: String) {
        let id = Self.id(name)
        connected.insert(id)
        apply(room.connect(id, now: now))
    }

    /// Moves the clock and fires everything due, as the room's timer would.
    mutating func advance(ms: Int) {
        let target = now + ms
        while let deadline = room.nextDeadline, deadline <= target {
            now = max(now, deadline)
            apply(room.tick(now: now))
        }
        now = target
        apply(room.tick(now: now))
    }

    /// Runs the clock until the phase is `phase` (at most `limitMs`).
    mutating func advance(until phase: GamePhase, limitMs: Int = 600_000) {
        let end = now + limitMs
        while room.phase != phase, let deadline = room.nextDeadline, deadline <= end {
            now = max(now, deadline)
            apply(room.tick(now: now))
        }
    }

    mutating func apply(_ effects: [RoomEffect]) {
        for effect in effects {
            switch effect {
            case .send(let message, let audience):
                for id in recipients(audience) { inbox[id, default: []].append(message) }
                if let key = Self.historyKey(message) {
                    for id in members(audience) { allowedChat[id, default: []].append(key) }
                }
                if case .chatHistory(let lines) = message, case .player(let id) = audience {
                    let got = lines.map(Self.historyKey)
                    let expected = Array((allowedChat[id] ?? []).suffix(Room.chatHistoryLimit))
                    if got != expected { historyMismatches.append("\(id): got \(got), expected \(expected)") }
                }
            case .sendDrawing(let drawing, let id):
                if connected.contains(id) { frames[id, default: []] += drawing }
            case .released(let id):
                connected.remove(id)
                allowedChat[id] = nil
                released.append(id)
            case .turnFinished(let record):
                turns.append(record)
            case .gameFinished(let record):
                games.append(record)
            case .turnRated(let rating):
                ratingUpdates.append(rating)
            case .botSeated(let id, _):
                // A bot's brain is seated like a connection: it receives what a player does.
                connected.insert(id)
                bots.append(id)
            }
        }
    }

    /// What a history line stands for, and the live message it was kept from.
    static func historyKey(_ message: ServerMessage) -> String? {
        switch message {
        case .chat(let from, let name, let text): "chat|\(from)|\(name)|\(text)"
        case .guessed(let id, _, _): "guessed|\(id)"
        case .close(let text): "close|\(text)"
        case .turnEnd(let word, let reason, _, _, _): "reveal|\(word)|\(reason)"
        case .notice(.botPassed(let id, let name)): "passed|\(id)|\(name)"
        default: nil
        }
    }

    static func historyKey(_ line: ChatLine) -> String {
        switch line.kind {
        case nil: "chat|\(line.from)|\(line.name)|\(line.text)"
        case .guessed: "guessed|\(line.from)"
        case .close: "close|\(line.text)"
        case .reveal: "reveal|\(line.word ?? "")|\(line.reason ?? .time)"
        case .passed: "passed|\(line.from)|\(line.name)"
        }
    }

    func recipients(_ audience: Audience) -> [PlayerID] {
        switch audience {
        case .player(let id): connected.contains(id) ? [id] : []
        case .everyone: Array(connected)
        case .everyoneExcept(let excluded): connected.filter { $0 != excluded }
        case .players(let ids): ids.filter(connected.contains)
        }
    }

    /// The members an audience covers, connected or not.
    func members(_ audience: Audience) -> [PlayerID] {
        let ids = room.members.map(\.id)
        return switch audience {
        case .player(let id): ids.contains(id) ? [id] : []
        case .everyone: ids
        case .everyoneExcept(let excluded): ids.filter { $0 != excluded }
        case .players(let listed): listed.filter(ids.contains)
        }
    }

    /// Messages `name` received, and forget them.
    mutating func take(_ name: String) -> [ServerMessage] {
        let id = Self.id(name)
        defer { inbox[id] = [] }
        return inbox[id] ?? []
    }

    func received(_ name: String) -> [ServerMessage] { inbox[Self.id(name)] ?? [] }

    func errors(_ name: String) -> [ErrorCode] {
        received(name).compactMap { if case .error(let e) = $0 { e.code } else { nil } }
    }

    /// The drawer's current word (from its private `choose`/`turn` messages or state).
    var currentWord: String? {
        if case .drawing(let turn) = room.state { return turn.word }
        return nil
    }

    var drawerName: String? { room.drawer?.rawValue }

    mutating func startGame(host: String) {
        send(.start, from: host)
    }

    /// Ada, Bob and Cy in a room whose only word is `word` (`settings` otherwise), the
    /// first turn's drawing phase begun.
    static func drawing(_ word: String, settings: RoomSettings = RoomSettings()) -> RoomHarness {
        var settings = settings
        settings.customWords = [word]
        settings.customOnly = true
        settings.wordChoices = 1
        var h = RoomHarness(settings: settings)
        h.join("ada", "bob", "cy")
        h.startGame(host: "ada")
        h.chooseFirst()
        return h
    }

    /// Drawer picks the first word.
    mutating func chooseFirst() {
        guard case .choosing(let choosing) = room.state else { return }
        send(.choose(index: 0), from: choosing.drawer.rawValue)
    }
}

extension ServerMessage {
    var isRoom: Bool { if case .room = self { true } else { false } }
}
