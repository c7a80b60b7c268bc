/// Every text message the server sends (protocol sections 2 to 4 and docs/PROTOCOL.md).
///
/// A message whose `t` this library does not know, or a known one missing a field it
/// needs, decodes as `.unknown(type:raw:)`, so a newer server never breaks a client.
public enum ServerEvent: Sendable, Hashable {
    case welcome(WelcomeInfo)
    case error(ServerError)
    case rooms([LobbyRoom])
    case room(RoomInfo)
    case joined(PlayerInfo)
    /// `reason`: `left`, `kicked`, `votekicked` or `banned` (`left` from older servers).
    case left(playerID: String, reason: String = "left")
    case ready(playerID: String, ready: Bool)
    case chat(ChatEntry)
    case choosing(drawer: String, remainingMs: Int)
    /// To the drawer only: the words to choose from.
    case choose(words: [String], remainingMs: Int)
    /// `word` only in the drawer's copy.
    case turn(drawer: String, round: Int, mask: String, remainingMs: Int, word: String?)
    case hint(mask: String)
    /// To the guesser only: its guess was one edit away.
    case close(text: String)
    /// `word` only in the guesser's own copy.
    case guessed(playerID: String, points: Int, word: String? = nil)
    case turnEnd(TurnEndInfo)
    case gameEnd(ranking: [RankingEntry])
    case invited(fromID: String, fromName: String, code: String)
    case kicked(code: String?)
    case closed(code: String?)
    /// The canvas is replaced: clear it to white at this size; drawing frames follow.
    case canvas(width: Int, height: Int)
    case votekick(target: String, votes: Int, needed: Int)
    case ratings(likes: Int, dislikes: Int)
    /// Chat lines and, with a `kind`, the game's events, oldest first.
    case chatHistory([ChatEntry])
    /// On resume during a game: its drawings so far, oldest first.
    case gameDrawings([GameDrawingInfo])
    /// A short system line to show (`bot_passed`, `slow_down`, `settings_adjusted`).
    case notice(NoticeInfo)
    /// The room runs on another node: reconnect at `path` and `join` again (CLUSTER.md).
    case redirect(room: String, node: String, path: String)
    case unknown(type: String, raw: WireJSON)

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
        case .gameDrawings: "gameDrawings"
        case .notice: "notice"
        case .redirect: "redirect"
        case .unknown(let type, _): type
        }
    }

    /// Decodes one text frame; nil when it is not a JSON object with a string `t`.
    public init?(text: String) {
        guard let json = WireJSON(parsing: text) else { return nil }
        self.init(json: json)
    }

    /// Decodes one parsed message; nil when it is not an object with a string `t`.
    public init?(json: WireJSON) {
        guard let type = json["t"]?.stringValue else { return nil }
        self = Self.decode(type: type, json) ?? .unknown(type: type, raw: json)
    }

    private static func decode(type: String, _ m: WireJSON) -> ServerEvent? {
        switch type {
        case "welcome":
            guard let id = m["playerId"]?.stringValue, let token = m["token"]?.stringValue else { return nil }
            return .welcome(WelcomeInfo(
                playerID: id, token: token, resumed: m["resumed"]?.boolValue ?? false,
                name: m["name"]?.stringValue ?? "", avatar: PlayerAvatar(m["avatar"])
            ))
        case "error":
            guard let code = m["code"]?.stringValue else { return nil }
            return .error(ServerError(
                code: code, message: m["message"]?.stringValue ?? "", ref: m["ref"]?.stringValue ?? "",
                retryAfterMs: m["retryAfterMs"]?.intValue
            ))
        case "rooms":
            guard let list = m["rooms"]?.arrayValue else { return nil }
            return .rooms(list.compactMap { LobbyRoom($0) })
        case "room":
            return RoomInfo(m).map(ServerEvent.room)
        case "joined":
            return PlayerInfo(m["player"]).map(ServerEvent.joined)
        case "left":
            return m["playerId"]?.stringValue.map { .left(playerID: $0, reason: m["reason"]?.stringValue ?? "left") }
        case "ready":
            guard let id = m["playerId"]?.stringValue else { return nil }
            return .ready(playerID: id, ready: m["ready"]?.boolValue ?? true)
        case "chat":
            return chatEntry(m).map(ServerEvent.chat)
        case "choosing":
            guard let drawer = m["drawer"]?.stringValue else { return nil }
            return .choosing(drawer: drawer, remainingMs: m["remainingMs"]?.intValue ?? 0)
        case "choose":
            guard let words = m["words"]?.arrayValue?.compactMap(\.stringValue) else { return nil }
            return .choose(words: words, remainingMs: m["remainingMs"]?.intValue ?? 0)
        case "turn":
            guard let drawer = m["drawer"]?.stringValue, let mask = m["mask"]?.stringValue else { return nil }
            return .turn(
                drawer: drawer, round: m["round"]?.intValue ?? 0, mask: mask,
                remainingMs: m["remainingMs"]?.intValue ?? 0, word: m["word"]?.stringValue
            )
        case "hint":
            return m["mask"]?.stringValue.map { .hint(mask: $0) }
        case "close":
            return m["text"]?.stringValue.map { .close(text: $0) }
        case "guessed":
            guard let id = m["playerId"]?.stringValue else { return nil }
            return .guessed(playerID: id, points: m["points"]?.intValue ?? 0, word: m["word"]?.stringValue)
        case "turnEnd":
            guard let word = m["word"]?.stringValue else { return nil }
            var scores: [String: Int] = [:]
            for (id, value) in m["scores"]?.objectValue ?? [:] { scores[id] = value.intValue ?? 0 }
            let drawing = m["drawing"].flatMap { links -> DrawingLinks? in
                guard let id = links["id"]?.stringValue else { return nil }
                return DrawingLinks(id: id, png: links["png"]?.stringValue ?? "", timelapse: links["timelapse"]?.stringValue ?? "")
            }
            return .turnEnd(TurnEndInfo(
                word: word, reason: m["reason"]?.stringValue ?? "", scores: scores,
                likes: m["ratings"]?["likes"]?.intValue ?? 0, dislikes: m["ratings"]?["dislikes"]?.intValue ?? 0,
                drawing: drawing
            ))
        case "gameEnd":
            guard let list = m["ranking"]?.arrayValue else { return nil }
            return .gameEnd(ranking: list.compactMap { entry in
                guard let id = entry["id"]?.stringValue else { return nil }
                return RankingEntry(
                    id: id, name: entry["name"]?.stringValue ?? "", score: entry["score"]?.intValue ?? 0,
                    place: entry["place"]?.intValue ?? 0, avatar: PlayerAvatar(entry["avatar"])
                )
            })
        case "invited":
            guard let id = m["from"]?["id"]?.stringValue, let code = m["code"]?.stringValue else { return nil }
            return .invited(fromID: id, fromName: m["from"]?["name"]?.stringValue ?? "", code: code)
        case "kicked":
            return .kicked(code: m["code"]?.stringValue)
        case "closed":
            return .closed(code: m["code"]?.stringValue)
        case "canvas":
            guard let w = m["w"]?.intValue, let h = m["h"]?.intValue else { return nil }
            return .canvas(width: w, height: h)
        case "votekick":
            guard let target = m["target"]?.stringValue else { return nil }
            return .votekick(target: target, votes: m["votes"]?.intValue ?? 0, needed: m["needed"]?.intValue ?? 0)
        case "ratings":
            return .ratings(likes: m["likes"]?.intValue ?? 0, dislikes: m["dislikes"]?.intValue ?? 0)
        case "chatHistory":
            guard let lines = m["lines"]?.arrayValue else { return nil }
            return .chatHistory(lines.compactMap(historyEntry))
        case "gameDrawings":
            guard let list = m["drawings"]?.arrayValue else { return nil }
            return .gameDrawings(list.compactMap { d in
                guard let id = d["id"]?.stringValue else { return nil }
                return GameDrawingInfo(
                    links: DrawingLinks(id: id, png: d["png"]?.stringValue ?? "", timelapse: d["timelapse"]?.stringValue ?? ""),
                    word: d["word"]?.stringValue ?? "", drawer: d["drawer"]?.stringValue ?? "",
                    name: d["name"]?.stringValue ?? "", round: d["round"]?.intValue ?? 0
                )
            })
        case "notice":
            guard let code = m["code"]?.stringValue else { return nil }
            return .notice(NoticeInfo(
                code: code, playerID: m["playerId"]?.stringValue, name: m["name"]?.stringValue,
                retryMs: m["retryMs"]?.intValue, fields: m["fields"]?.objectValue ?? [:]
            ))
        case "redirect":
            guard let room = m["room"]?.stringValue, let path = m["path"]?.stringValue else { return nil }
            return .redirect(room: room, node: m["node"]?.stringValue ?? "", path: path)
        default:
            return nil
        }
    }

    private static func chatEntry(_ m: WireJSON) -> ChatEntry? {
        guard let from = m["from"]?.stringValue, let text = m["text"]?.stringValue else { return nil }
        return ChatEntry(from: from, name: m["name"]?.stringValue ?? "", text: text)
    }

    /// A `chatHistory` line: a chat line, or a game event with its `kind`.
    private static func historyEntry(_ m: WireJSON) -> ChatEntry? {
        guard let kind = m["kind"]?.stringValue else { return chatEntry(m) }
        return ChatEntry(
            from: m["playerId"]?.stringValue ?? "", name: m["name"]?.stringValue ?? "", text: m["text"]?.stringValue ?? "",
            kind: kind, word: m["word"]?.stringValue, reason: m["reason"]?.stringValue
        )
    }
}
