import Canvas
import DrawProtocol
import Foundation

/// Everything needed to bring a room back after a restart, except its canvas (stored as
/// stroke frames). Times are kept as "milliseconds left" so the clock effectively stops
/// while the server is down.
public struct RoomSnapshot: Codable, Sendable, Equatable {
    public struct MemberState: Codable, Sendable, Equatable {
        public var id: String
        public var name: String
        public var score: Int
        public var ready: Bool
        public var spectator: Bool
        public var guessed: Bool
        public var pendingSpectator: Bool?
        public var order: Int
        /// Nil in snapshots written before avatars: the standard avatar then.
        public var avatar: Avatar?
        /// Nil in snapshots written before chat history: sees every kept line.
        public var chatSince: Int?
        /// A bot seat's level; nil for people (and in snapshots written before bots).
        public var bot: BotLevel? = nil
        /// Whether the member was connected when the snapshot was taken: what another node's
        /// room list reads (`RoomSummary.connected`). A restore starts everyone disconnected
        /// whatever it says. Nil in snapshots written before it.
        public var connected: Bool? = nil
        /// A screen that watches; nil in snapshots written before it (and for everyone else).
        public var watching: Bool? = nil
    }

    /// The turn being rated (drawing and its turnEnd).
    public struct RatedTurnState: Codable, Sendable, Equatable {
        public var drawer: String
        public var game: Int
        public var turn: Int
        /// Player -> "like" or "dislike".
        public var ratings: [String: Rating]
    }

    public struct PhaseState: Codable, Sendable, Equatable {
        public var phase: GamePhase
        public var remainingMs: Int
        public var drawer: String?
        public var words: [String]?
        public var word: String?
        public var revealed: [Int]?
        public var elapsedMs: Int?
        public var pendingHints: [Int]?
        public var guesses: [Guess]?
        /// In the lobby: what was left of the countdown to the next game.
        public var nextGameMs: Int? = nil
    }

    public struct Guess: Codable, Sendable, Equatable {
        public var id: String
        public var points: Int
    }

    public struct GameState: Codable, Sendable, Equatable {
        public var number: Int
        public var round: Int
        public var turn: Int
        public var pendingDrawers: [String]
        public var bag: WordBag
        /// Words drawn in this game's current cycle; absent in older snapshots.
        public var usedWords: [String]? = nil
    }

    public var version = 1
    public var code: String
    public var name: String
    public var isPublic: Bool
    public var host: String?
    public var settings: RoomSettings
    public var members: [MemberState]
    public var phase: PhaseState
    public var game: GameState?
    public var gamesPlayed: Int
    public var nextOrder: Int
    /// Kick bans: player -> milliseconds left.
    public var bans: [String: Int]
    public var votes: [String: [String]]
    public var rng: SeededRandom
    public var canvasGeneration: Int
    // Added for ratings and chat history; absent in older snapshots.
    public var ratedTurn: RatedTurnState?
    public var chat: [ChatLine]?
    public var chatSequence: Int?
    /// The game's drawings so far (issue 39); absent when none and in older snapshots.
    public var gameDrawings: [GameDrawing]? = nil
    /// A telephone game's steps or album; absent otherwise.
    public var telephone: TelephoneSnapshot? = nil
}

/// A telephone game as stored: its step (the time left is the phase's `remainingMs`),
/// the chains so far, this step's submissions and each seat's drawing so far; or, in the
/// album, the chains and how far they were shown.
public struct TelephoneSnapshot: Codable, Sendable, Equatable {
    public struct SketchState: Codable, Sendable, Equatable {
        public var player: String
        /// Frames as base64, each with its time in the step.
        public var frames: [String]
        public var at: [Int]
    }

    public var seats: [String]
    public var step: Int
    public var elapsedMs: Int
    public var chains: [[AlbumEntry]]
    public var texts: [String: String]
    public var submitted: [String]
    public var sketches: [SketchState]
    /// In the album: the entry shown last.
    public var albumChain: Int?
    public var albumEntry: Int?
}

extension RoomSnapshot {
    /// The snapshot `ms` milliseconds later: phase time and bans run down, a drawing turn
    /// ages. Used when the server ran on after the room's last write before it stopped.
    public func advanced(byMs ms: Int) -> RoomSnapshot {
        guard ms > 0 else { return self }
        var copy = self
        if copy.phase.phase != .lobby { copy.phase.remainingMs = max(0, copy.phase.remainingMs - ms) }
        if let left = copy.phase.nextGameMs { copy.phase.nextGameMs = max(0, left - ms) }
        if let elapsed = copy.phase.elapsedMs { copy.phase.elapsedMs = elapsed + ms }
        copy.bans = copy.bans.mapValues { $0 - ms }.filter { $0.value > 0 }
        return copy
    }
}

extension WordBag: Equatable {
    public static func == (a: WordBag, b: WordBag) -> Bool { a.words == b.words && a.pending == b.pending }
}

extension Room {
    /// The room's state at `now`, for storage.
    public func snapshot(now: Timestamp) -> RoomSnapshot {
        var phase = RoomSnapshot.PhaseState(phase: self.phase, remainingMs: remainingMs(now: now))
        var telephone: TelephoneSnapshot?
        switch state {
        case .lobby:
            phase.nextGameMs = nextGameAt.map { max(0, $0 - now) }
        case .gameEnd:
            break
        case .telephone(let game):
            telephone = TelephoneSnapshot(
                seats: game.seats.map(\.rawValue), step: game.step, elapsedMs: max(0, now - game.startedAt), chains: game.chains,
                texts: game.texts.reduce(into: [:]) { $0[$1.key.rawValue] = $1.value },
                submitted: game.seats.filter(game.submitted.contains).map(\.rawValue),
                sketches: game.seats.compactMap { id in
                    game.sketches[id].map { sketch in
                        TelephoneSnapshot.SketchState(
                            player: id.rawValue, frames: sketch.frames.map { Data($0.bytes).base64EncodedString() }, at: sketch.frames.map(\.at)
                        )
                    }
                }
            )
        case .album(let album):
            telephone = TelephoneSnapshot(
                seats: album.chains.map(\.owner.rawValue), step: album.chains.count, elapsedMs: 0,
                chains: album.chains.map(\.entries), texts: [:], submitted: [], sketches: [],
                albumChain: album.chain, albumEntry: album.entry
            )
        case .turnEnd(_, let word):
            phase.word = word
        case .choosing(let choosing):
            phase.drawer = choosing.drawer.rawValue
            phase.words = choosing.words
        case .drawing(let turn):
            phase.drawer = turn.drawer.rawValue
            phase.word = turn.word
            phase.revealed = turn.mask.revealed.sorted()
            phase.elapsedMs = max(0, now - turn.startedAt)
            phase.pendingHints = turn.pendingHints
            phase.guesses = turn.guesses.map { RoomSnapshot.Guess(id: $0.id.rawValue, points: $0.points) }
        }
        return RoomSnapshot(
            code: code.rawValue, name: name, isPublic: isPublic, host: host?.rawValue, settings: settings,
            members: members.map {
                RoomSnapshot.MemberState(
                    id: $0.id.rawValue, name: $0.name, score: $0.score, ready: $0.ready, spectator: $0.spectator,
                    guessed: $0.guessed, pendingSpectator: $0.pendingSpectator, order: $0.order,
                    avatar: $0.avatar, chatSince: $0.chatSince, bot: $0.bot, connected: $0.connected,
                    watching: $0.watching ? true : nil
                )
            },
            phase: phase,
            game: game.map {
                RoomSnapshot.GameState(
                    number: $0.number, round: $0.round, turn: $0.turn, pendingDrawers: $0.pendingDrawers.map(\.rawValue), bag: $0.bag,
                    usedWords: $0.usedWords.isEmpty ? nil : $0.usedWords
                )
            },
            gamesPlayed: gamesPlayed, nextOrder: nextOrder,
            bans: bans.filter { $0.value > now }.reduce(into: [:]) { $0[$1.key.rawValue] = $1.value - now },
            votes: votes.reduce(into: [:]) { $0[$1.key.rawValue] = $1.value.map(\.rawValue).sorted() },
            rng: rng, canvasGeneration: canvasGeneration,
            ratedTurn: ratedTurn.map {
                RoomSnapshot.RatedTurnState(
                    drawer: $0.drawer.rawValue, game: $0.game, turn: $0.turn,
                    ratings: $0.ratings.reduce(into: [:]) { $0[$1.key.rawValue] = $1.value }
                )
            },
            chat: chatLog, chatSequence: chatSequence, gameDrawings: gameDrawings.isEmpty ? nil : gameDrawings,
            telephone: telephone
        )
    }

    /// Rebuilds a room from storage at `now`: every member starts disconnected, so the grace
    /// period runs from the restart; the canvas is rebuilt from the stored frames.
    public init(restoring s: RoomSnapshot, frames: [StrokeLog.Frame], configuration: RoomConfiguration, now: Timestamp) throws(RestoreError) {
        guard let code = RoomCode(parsing: s.code) else { throw RestoreError("bad room code \(s.code)") }
        self.init(code: code, name: s.name, isPublic: s.isPublic, settings: s.settings, configuration: configuration, seed: 0)
        rng = s.rng
        host = s.host.map(PlayerID.init)
        members = s.members.map { m in
            var member = Member(id: PlayerID(m.id), name: m.name, order: m.order, avatar: m.avatar)
            member.score = m.score
            member.ready = m.ready
            member.spectator = m.spectator
            member.guessed = m.guessed
            member.pendingSpectator = m.pendingSpectator
            member.chatSince = m.chatSince ?? 0
            member.bot = m.bot
            member.watching = m.watching ?? false
            // A bot has no connection to wait for: the shell seats its brain again at once.
            member.connected = m.bot != nil
            member.disconnectedAt = m.bot != nil ? nil : now
            return member
        }
        gamesPlayed = s.gamesPlayed
        nextOrder = s.nextOrder
        bans = s.bans.reduce(into: [:]) { $0[PlayerID($1.key)] = now + $1.value }
        votes = s.votes.reduce(into: [:]) { $0[PlayerID($1.key)] = Set($1.value.map(PlayerID.init)) }
        game = s.game.map {
            GameProgress(
                number: $0.number, round: $0.round, turn: $0.turn, pendingDrawers: $0.pendingDrawers.map(PlayerID.init), bag: $0.bag,
                usedWords: $0.usedWords ?? []
            )
        }
        canvasGeneration = s.canvasGeneration
        ratedTurn = s.ratedTurn.map {
            RatedTurn(
                drawer: PlayerID($0.drawer), game: $0.game, turn: $0.turn,
                ratings: $0.ratings.reduce(into: [:]) { $0[PlayerID($1.key)] = $1.value }
            )
        }
        chatLog = Array((s.chat ?? []).suffix(Self.chatLogLimit))
        chatSequence = max(s.chatSequence ?? 0, (chatLog.last?.sequence ?? -1) + 1)
        gameDrawings = s.gameDrawings ?? []
        let deadline = now + s.phase.remainingMs
        switch s.phase.phase {
        case .lobby:
            state = .lobby
            nextGameAt = s.phase.nextGameMs.map { now + $0 }
        case .turnEnd:
            state = .turnEnd(deadline: deadline, word: s.phase.word)
        case .gameEnd:
            state = .gameEnd(deadline: deadline)
        case .choosing:
            guard let drawer = s.phase.drawer, let words = s.phase.words else { throw RestoreError("choosing without drawer or words") }
            state = .choosing(ChoosingState(drawer: PlayerID(drawer), words: words, deadline: deadline))
        case .drawing:
            guard let drawer = s.phase.drawer, let word = s.phase.word else { throw RestoreError("drawing without drawer or word") }
            var mask = WordMask(word: word)
            mask.revealed = Set(s.phase.revealed ?? [])
            let started = now + -(s.phase.elapsedMs ?? 0)
            var turn = DrawingTurn(
                drawer: PlayerID(drawer), judge: WordJudge(word: word), mask: mask,
                startedAt: started, deadline: deadline, pendingHints: s.phase.pendingHints ?? []
            )
            turn.guesses = (s.phase.guesses ?? []).map { (PlayerID($0.id), $0.points) }
            state = .drawing(turn)
            strokeLog.word = word
        case .telephone:
            guard let t = s.telephone, t.seats.count >= 1, t.chains.count == t.seats.count, (0..<t.seats.count).contains(t.step) else {
                throw RestoreError("telephone step without its game")
            }
            var game = TelephoneState(
                seats: t.seats.map(PlayerID.init), step: t.step, startedAt: now + -t.elapsedMs, deadline: deadline, chains: t.chains
            )
            game.texts = t.texts.reduce(into: [:]) { $0[PlayerID($1.key)] = $1.value }
            game.submitted = Set(t.submitted.map(PlayerID.init))
            for stored in t.sketches {
                var sketch = Sketch(size: configuration.canvas)
                for (text, at) in zip(stored.frames, stored.at) {
                    guard let data = Data(base64Encoded: text) else { throw RestoreError("telephone drawing frame is not base64") }
                    let bytes = [UInt8](data)
                    do {
                        _ = try sketch.drawing.apply(frame: bytes)
                    } catch {
                        throw RestoreError("stored telephone frame rejected: \(error)")
                    }
                    sketch.frames.append(StrokeLog.Frame(at: at, bytes: bytes))
                    sketch.bytes += bytes.count
                }
                game.sketches[PlayerID(stored.player)] = sketch
            }
            state = .telephone(game)
        case .album:
            guard let t = s.telephone, t.chains.count == t.seats.count else { throw RestoreError("album without its chains") }
            state = .album(AlbumState(
                chains: zip(t.seats, t.chains).map { AlbumChain(owner: PlayerID($0), entries: $1) },
                chain: t.albumChain ?? 0, entry: t.albumEntry ?? -1, deadline: deadline
            ))
        }
        for frame in frames {
            do {
                _ = try drawing.apply(frame: frame.bytes)
            } catch {
                throw RestoreError("stored stroke frame rejected: \(error)")
            }
            strokeLog.frames.append(frame)
            strokeLogBytes += frame.bytes.count
        }
    }
}

/// A stored room that cannot be brought back.
public struct RestoreError: Error, Sendable, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
