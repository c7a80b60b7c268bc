/// Every message the server sends as a text frame (protocol sections 2 to 4, plus the
/// additions in docs/PROTOCOL.md).
public enum ServerMessage: Sendable, Hashable {
    /// `avatar` nil is sent as the player's standard avatar.
    case welcome(playerID: PlayerID, token: String, resumed: Bool, name: String, avatar: Avatar? = nil)
    case error(ProtocolError)
    case rooms([RoomSummary])
    case room(RoomView)
    case joined(PlayerView)
    /// `reason` since issue 39 (`left` unless kicked, voted out or banned).
    case left(PlayerID, reason: LeaveReason = .left)
    case ready(PlayerID, Bool)
    case chat(from: PlayerID, name: String, text: String)
    case choosing(drawer: PlayerID, remainingMs: Int)
    case choose(words: [String], remainingMs: Int)
    case turn(drawer: PlayerID, round: Int, mask: String, remainingMs: Int, word: String?)
    case hint(mask: String)
    case close(text: String)
    /// `word` only in the guesser's own copy (issue 39).
    case guessed(PlayerID, points: Int, word: String? = nil)
    /// `drawing` is nil (the field left out) when the canvas ended empty.
    case turnEnd(word: String, reason: TurnEndReason, scores: [PlayerID: Int], ratings: RatingCounts = RatingCounts(), drawing: DrawingID? = nil)
    case gameEnd(ranking: [RankEntry])
    case invited(from: PlayerID, name: String, code: RoomCode, avatar: Avatar? = nil)
    case kicked(code: RoomCode)
    case closed(code: RoomCode)
    case canvas(width: Int, height: Int)
    case votekick(target: PlayerID, votes: Int, needed: Int)
    /// The current drawing's likes and dislikes changed.
    case ratings(RatingCounts)
    /// On resume: the chat lines this player may see, oldest first.
    case chatHistory([ChatLine])
    /// The sender's gallery setting, as the server now keeps it (answers `gallery`).
    case gallery(listed: Bool)
    /// A report was filed; `id` names it for the moderator.
    case reported(id: String)
    /// A short system line (`Notice`), to one player or the room.
    case notice(Notice)
    /// On resume during a game or its end: the game's drawings so far, oldest first.
    case gameDrawings([GameDrawing])
    /// The room lives on another node of the cluster: reconnect at `path` and send the
    /// `join` again (docs/CLUSTER.md).
    case redirect(room: RoomCode, node: String, path: String)
    /// Telephone mode: a step starts (or is sent again to a player who came back).
    case phoneStep(PhoneStep)
    /// Telephone mode: who has submitted in step `step` so far (never what), and the
    /// step's time left when the server says it (at a step's start, on a submission, to a
    /// member who joins or comes back): a watcher gets no `phoneStep` to read it from.
    case phoneProgress(step: Int, done: [PlayerID], remainingMs: Int? = nil)
    /// Telephone mode: every chain, once the last step ended.
    case album([AlbumChain])
    /// Telephone mode: the host showed the album up to entry `entry` of chain `chain`
    /// (both from 0).
    case albumReveal(chain: Int, entry: Int)

    /// The message's `t`.
    public var type: String {
        switch self {
        case .welcome: "welcome"
        case .error: "error"
        case .rooms: "rooms"
        case .room: "room"
        case .joined: "joined"
        case .left: "left"
        case .ready: "ready"
        case .chat: "chat"
        case .choosing: "choosing"
        case .choose: "choose"
        case .turn: "turn"
        case .hint: "hint"
        case .close: "close"
        case .guessed: "guessed"
        case .turnEnd: "turnEnd"
        case .gameEnd: "gameEnd"
        case .invited: "invited"
        case .kicked: "kicked"
        case .closed: "closed"
        case .canvas: "canvas"
        case .votekick: "votekick"
        case .ratings: "ratings"
        case .chatHistory: "chatHistory"
        case .gallery: "gallery"
        case .reported: "reported"
        case .notice: "notice"
        case .gameDrawings: "gameDrawings"
        case .redirect: "redirect"
        case .phoneStep: "phoneStep"
        case .phoneProgress: "phoneProgress"
        case .album: "album"
        case .albumReveal: "albumReveal"
        }
    }
}

/// Why a member left a room, as sent in `left.reason`.
public enum LeaveReason: String, Sendable, Hashable {
    /// It left, or its seat was lost after the grace period.
    case left
    /// The host or a moderator kicked it.
    case kicked
    /// The room voted it out.
    case votekicked
    /// A moderator banned it from the server.
    case banned
}

/// Why a turn ended, as sent in `turnEnd.reason`.
public enum TurnEndReason: String, Sendable, Hashable, Codable {
    case time
    case allGuessed
    case skipped
    case drawerLeft
}

/// One line of the `gameEnd` ranking; equal scores share a place.
public struct RankEntry: Sendable, Hashable, Codable {
    public var id: PlayerID
    public var name: String
    public var score: Int
    public var place: Int
    /// Nil only in rankings stored before avatars; sent as the standard avatar then.
    public var avatar: Avatar? = nil
    /// A bot's line: sent as `"bot":true` (left out for people).
    public var bot: Bool? = nil

    public init(
        id: PlayerID, name: String, score: Int, place: Int, avatar: Avatar? = nil, bot: Bool? = nil
    ) {
        self.id = id
        self.name = name
        self.score = score
        self.place = place
        self.avatar = avatar
        self.bot = bot
    }
}

/// A public room list entry.
public struct RoomSummary: Sendable, Hashable {
    public var code: RoomCode
    public var name: String
    public var isPublic: Bool
    public var players: Int
    public var maxPlayers: Int
    public var phase: GamePhase
    /// How many of `players` are bots (seats they hold count in `players`, so a full room
    /// reads full); sent as `bots`.
    public var bots = 0
    /// How many people (not bots) in the room are connected now. A room where nobody is (a
    /// room restored after a restart whose players have not come back yet) is not listed
    /// publicly and never chosen by quick play. Not sent.
    public var connected: Int
    /// The word list's language, the round being played (0 outside a game) and the rounds
    /// a game has (issue 39).
    public var language = RoomSettings().language
    public var round = 0
    public var rounds = RoomSettings().rounds

    public init(
        code: RoomCode, name: String, isPublic: Bool, players: Int, maxPlayers: Int, phase: GamePhase, bots: Int = 0,
        connected: Int? = nil, language: String = RoomSettings().language, round: Int = 0, rounds: Int = RoomSettings().rounds
    ) {
        self.bots = bots
        self.connected = connected ?? players - bots
        self.language = language
        self.round = round
        self.rounds = rounds
        self.code = code
        self.name = name
        self.isPublic = isPublic
        self.players = players
        self.maxPlayers = maxPlayers
        self.phase = phase
    }
}

extension RoomSummary {
    /// Public and with a person connected: offered in the public list.
    public var isListed: Bool { isPublic && connected > 0 }

    /// A room quick play may seat a newcomer in.
    public var isQuickplayCandidate: Bool { isListed && phase == .lobby && players < maxPlayers }

    /// Quick play's preference: the most people connected, then the fullest, then by code.
    public static func quickplayOrder(_ a: RoomSummary, _ b: RoomSummary) -> Bool {
        (a.connected, a.players, b.code.rawValue) > (b.connected, b.players, a.code.rawValue)
    }
}

/// One player as shown in a `room` message.
public struct PlayerView: Sendable, Hashable {
    public var id: PlayerID
    public var name: String
    public var score: Int
    public var ready: Bool
    public var connected: Bool
    public var guessed: Bool
    public var spectator: Bool
    public var avatar: Avatar
    /// A bot seat: sent as `"bot":true` (left out for people).
    public var bot = false
    /// A screen that watches (`join` with `watch`, a `/tv` page; always a spectator): sent
    /// as `"watching":true` (left out otherwise), so clients may list it apart.
    public var watching = false

    public init(
        id: PlayerID, name: String, score: Int, ready: Bool, connected: Bool, guessed: Bool, spectator: Bool,
        avatar: Avatar, bot: Bool = false, watching: Bool = false
    ) {
        self.id = id
        self.name = name
        self.score = score
        self.ready = ready
        self.connected = connected
        self.guessed = guessed
        self.spectator = spectator
        self.avatar = avatar
        self.bot = bot
        self.watching = watching
    }
}

/// The full room state of a `room` message, as one recipient may see it.
public struct RoomView: Sendable, Hashable {
    public var code: RoomCode
    public var name: String
    public var isPublic: Bool
    public var host: PlayerID?
    public var settings: RoomSettings
    public var phase: GamePhase
    public var round: Int
    public var rounds: Int
    public var drawer: PlayerID?
    public var mask: String?
    /// Only in the drawer's copy.
    public var word: String?
    public var remainingMs: Int
    public var players: [PlayerView]
    public var canvasWidth: Int
    public var canvasHeight: Int
    /// During `drawing` and `turnEnd`: the drawing's likes and dislikes.
    public var ratings: RatingCounts?
    /// Whether this copy is one player's own and carries its `myRating` (with `ratings`).
    public var showsMyRating = false
    public var myRating: Rating?
    /// Whether `settings.customWords` is shown: only to the host, who chose them (to anyone
    /// else they would give the word away); everyone gets `customWordCount`.
    public var showsCustomWords = false
    /// During `drawing` and `turnEnd`, in the copy of a player who guessed the word: the word.
    public var solvedWord: String? = nil
    /// In the lobby after a game: milliseconds left of the countdown to the next one.
    public var nextGameMs: Int? = nil
    /// How many custom words the room has, when a decoded copy did not show them; nil
    /// means `settings.customWords.count` (every copy the server builds).
    public var customWordCount: Int? = nil

    public init(
        code: RoomCode, name: String, isPublic: Bool, host: PlayerID?, settings: RoomSettings,
        phase: GamePhase, round: Int, rounds: Int, drawer: PlayerID?, mask: String?, word: String?,
        remainingMs: Int, players: [PlayerView], canvasWidth: Int, canvasHeight: Int, ratings: RatingCounts?,
        showsMyRating: Bool = false, myRating: Rating? = nil, showsCustomWords: Bool = false,
        solvedWord: String? = nil, nextGameMs: Int? = nil,
        customWordCount: Int? = nil
    ) {
        self.code = code
        self.name = name
        self.isPublic = isPublic
        self.host = host
        self.settings = settings
        self.phase = phase
        self.round = round
        self.rounds = rounds
        self.drawer = drawer
        self.mask = mask
        self.word = word
        self.remainingMs = remainingMs
        self.players = players
        self.canvasWidth = canvasWidth
        self.canvasHeight = canvasHeight
        self.ratings = ratings
        self.showsMyRating = showsMyRating
        self.myRating = myRating
        self.showsCustomWords = showsCustomWords
        self.solvedWord = solvedWord
        self.nextGameMs = nextGameMs
        self.customWordCount = customWordCount
    }
}

/// The phases of protocol section 4.
public enum GamePhase: String, Sendable, Hashable, Codable, CaseIterable {
    case lobby
    case choosing
    case drawing
    case turnEnd
    case gameEnd
    /// Telephone mode: the steps run.
    case telephone
    /// Telephone mode: the chains are shown.
    case album
}

extension PlayerID: Codable {
    public init(from decoder: any Decoder) throws { self.init(try decoder.singleValueContainer().decode(String.self)) }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
