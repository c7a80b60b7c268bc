import Canvas
import DrawProtocol

/// Who a message is for. Only room members with a live connection actually receive it.
public enum Audience: Sendable, Hashable {
    case player(PlayerID)
    case everyone
    case everyoneExcept(PlayerID)
    case players([PlayerID])
}

/// What the I/O shell must do after the room handled an event.
public enum RoomEffect: Sendable {
    /// Send one message; the shell encodes it once for every recipient.
    case send(ServerMessage, to: Audience)
    /// Send binary drawing frames that rebuild the canvas (after a `canvas` message).
    case sendDrawing(frames: [[UInt8]], to: PlayerID)
    /// The player is no longer a member of this room (left, kicked, grace expired, room closed).
    case released(PlayerID)
    /// A turn finished: keep it (and its stroke log) for history and export.
    case turnFinished(TurnRecord)
    /// A game finished: keep its ranking.
    case gameFinished(GameRecord)
    /// A stored turn's ratings changed (during its `turnEnd`).
    case turnRated(TurnRating)
    /// A bot took a seat (`addBot`, or a restored room's bot): the shell seats its brain.
    /// It ends with `released`, like any member.
    case botSeated(PlayerID, level: BotLevel)
}

/// A finished turn, as stored and exported.
public struct TurnRecord: Sendable, Equatable {
    public var roomCode: RoomCode
    public var game: Int
    public var turn: Int
    public var round: Int
    public var drawer: PlayerID
    public var word: String
    public var reason: TurnEndReason
    public var scores: [PlayerID: Int]
    public var strokes: StrokeLog
    /// The drawing's ratings when the turn ended; later changes come as `turnRated`.
    public var ratings = RatingCounts()
    /// The id its images are served under; nil when the canvas ended empty.
    public var drawing: DrawingID?
    /// Gallery facts (docs/PERSISTENCE.md, "Drawings and the gallery"): whether the room was
    /// public, its word list's language and the drawer's name when the turn ended.
    public var isPublic = false
    public var language = "en"
    public var drawerName = ""
    /// The drawer asked to keep its drawings off the public gallery (`gallery` message);
    /// set by the shell, which keeps the players' settings.
    public var drawerOptedOut = false

    /// The players a private room's drawing is listed to: everyone scored in the turn
    /// (its seated players and the drawer).
    public var players: [PlayerID] { scores.keys.sorted { $0.rawValue < $1.rawValue } }
}

/// A finished game and its ranking.
public struct GameRecord: Sendable, Hashable {
    public var roomCode: RoomCode
    public var game: Int
    public var ranking: [RankEntry]
}

/// Timings and limits of a room; defaults follow the protocol.
public struct RoomConfiguration: Sendable, Hashable {
    public var canvas: CanvasSize = .standard
    public var chooseMs = 15_000
    /// Replaces every room's `drawTimeSec` when set (`serve --draw-seconds`, for tests and
    /// demos: the setting itself cannot go below 30 s).
    public var drawMs: Int?
    public var turnEndMs = 5_000
    public var gameEndMs = 10_000
    /// After a game, the countdown in the lobby to the next one (`room.nextGameMs`); 0 runs none.
    public var nextGameMs = 20_000
    public var graceMs = 60_000
    /// A drawer disconnected this long loses its turn (`drawerLeft`).
    public var drawerAbsenceMs = 10_000
    public var kickBanMs = 600_000
    public var maxChatCharacters = 200
    /// Most points on the canvas at once (visible strokes). With the strokes cap below this
    /// bounds the compacted replay a late joiner receives (at most 4 bytes a point on an
    /// 800 x 600 canvas, 6 on the largest) and the cost of rendering a snapshot.
    public var maxDrawingPoints = 60_000
    /// Most strokes and fills on the canvas at once.
    public var maxDrawingItems = 5_000
    /// Most ink on the canvas at once, in canvas areas (`Drawing.ink`: stroke length times
    /// width, a whole canvas per fill), so rendering a snapshot or a late joiner's canvas
    /// costs at most about this many full-canvas paints whatever coordinates, widths or
    /// fills a client sends. A human drawing uses well under 10.
    public var maxDrawingInkAreas = 200
    /// When a turn's recorded frames pass this many bytes, the record is replaced by the
    /// compacted drawing, so a draw-and-clear loop cannot grow a room's memory or storage.
    public var maxTurnLogBytes = 1 << 20

    public init() {}
}
