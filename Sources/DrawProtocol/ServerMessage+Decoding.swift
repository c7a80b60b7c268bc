extension ServerMessage {
    /// Decodes one text frame from the server; nil when it is not a JSON object with a
    /// string `t` that this version knows, with the fields that message needs.
    ///
    /// Reading is lenient, as protocol section 1 asks of clients: unknown fields are
    /// ignored, and an optional field that is absent takes its documented default. So a
    /// newer server's additions never break an older client; only a message it cannot
    /// model at all is nil (a client keeps the text and may skip it).
    public init?(text: some Collection<UInt8>) {
        guard let json = JSONValue.parse(text) else { return nil }
        self.init(json: json)
    }

    /// Decodes one parsed message; see `init(text:)`.
    public init?(json m: JSONValue) {
        guard let type = m["t"]?.stringValue, let message = Self.decode(type: type, m) else { return nil }
        self = message
    }

    private static func decode(type: String, _ m: JSONValue) -> ServerMessage? {
        switch type {
        case "welcome":
            guard let id = m.playerID("playerId"), let token = m["token"]?.stringValue else { return nil }
            return .welcome(
                playerID: id, token: token, resumed: m["resumed"]?.boolValue ?? false,
                name: m["name"]?.stringValue ?? "", avatar: m["avatar"].flatMap(Avatar.init(json:))
            )
        case "error":
            guard let code = m["code"]?.stringValue.flatMap(ErrorCode.init(rawValue:)) else { return nil }
            var error = ProtocolError(code, m["message"]?.stringValue ?? "", ref: m["ref"]?.stringValue ?? "")
            error.retryAfterMs = m["retryAfterMs"]?.intValue
            return .error(error)
        case "rooms":
            guard let list = m["rooms"]?.arrayValue else { return nil }
            return .rooms(list.compactMap(RoomSummary.init(json:)))
        case "room":
            return RoomView(json: m).map(ServerMessage.room)
        case "joined":
            return m["player"].flatMap(PlayerView.init(json:)).map(ServerMessage.joined)
        case "left":
            guard let id = m.playerID("playerId") else { return nil }
            // A reason this version does not know still means the member is gone.
            return .left(id, reason: m["reason"]?.stringValue.flatMap(LeaveReason.init(rawValue:)) ?? .left)
        case "ready":
            guard let id = m.playerID("playerId") else { return nil }
            return .ready(id, m["ready"]?.boolValue ?? true)
        case "chat":
            guard let from = m.playerID("from"), let text = m["text"]?.stringValue else { return nil }
            return .chat(from: from, name: m["name"]?.stringValue ?? "", text: text)
        case "choosing":
            guard let drawer = m.playerID("drawer") else { return nil }
            return .choosing(drawer: drawer, remainingMs: m["remainingMs"]?.intValue ?? 0)
        case "choose":
            guard let words = m["words"]?.arrayValue?.compactMap(\.stringValue) else { return nil }
            return .choose(words: words, remainingMs: m["remainingMs"]?.intValue ?? 0)
        case "turn":
            guard let drawer = m.playerID("drawer"), let mask = m["mask"]?.stringValue else { return nil }
            return .turn(
                drawer: drawer, round: m["round"]?.intValue ?? 0, mask: mask,
                remainingMs: m["remainingMs"]?.intValue ?? 0, word: m["word"]?.stringValue
            )
        case "hint":
            return m["mask"]?.stringValue.map { .hint(mask: $0) }
        case "close":
            return m["text"]?.stringValue.map { .close(text: $0) }
        case "guessed":
            guard let id = m.playerID("playerId") else { return nil }
            return .guessed(id, points: m["points"]?.intValue ?? 0, word: m["word"]?.stringValue)
        case "turnEnd":
            guard let word = m["word"]?.stringValue,
                  let reason = m["reason"]?.stringValue.flatMap(TurnEndReason.init(rawValue:)) else { return nil }
            var scores: [PlayerID: Int] = [:]
            for (id, value) in m["scores"]?.objectValue ?? [:] { scores[PlayerID(id)] = value.intValue ?? 0 }
            return .turnEnd(
                word: word, reason: reason, scores: scores,
                ratings: m["ratings"].map(RatingCounts.init(json:)) ?? RatingCounts(),
                drawing: m["drawing"]?["id"]?.stringValue.flatMap { DrawingID(parsing: $0) }
            )
        case "gameEnd":
            guard let list = m["ranking"]?.arrayValue else { return nil }
            return .gameEnd(ranking: list.compactMap(RankEntry.init(json:)))
        case "invited":
            guard let from = m["from"], let id = from.playerID("id"), let code = m.roomCode("code") else { return nil }
            return .invited(
                from: id, name: from["name"]?.stringValue ?? "", code: code, avatar: from["avatar"].flatMap(Avatar.init(json:))
            )
        case "kicked":
            return m.roomCode("code").map { .kicked(code: $0) }
        case "closed":
            return m.roomCode("code").map { .closed(code: $0) }
        case "canvas":
            guard let width = m["w"]?.intValue, let height = m["h"]?.intValue else { return nil }
            return .canvas(width: width, height: height)
        case "votekick":
            guard let target = m.playerID("target") else { return nil }
            return .votekick(target: target, votes: m["votes"]?.intValue ?? 0, needed: m["needed"]?.intValue ?? 0)
        case "ratings":
            return .ratings(RatingCounts(json: m))
        case "chatHistory":
            guard let lines = m["lines"]?.arrayValue else { return nil }
            return .chatHistory(lines.compactMap(ChatLine.init(json:)))
        case "gallery":
            guard let listed = m["listed"]?.boolValue else { return nil }
            return .gallery(listed: listed)
        case "reported":
            return m["id"]?.stringValue.map { .reported(id: $0) }
        case "notice":
            return Notice(json: m).map(ServerMessage.notice)
        case "gameDrawings":
            guard let list = m["drawings"]?.arrayValue else { return nil }
            return .gameDrawings(list.compactMap(GameDrawing.init(json:)))
        case "redirect":
            guard let room = m.roomCode("room"), let path = m["path"]?.stringValue else { return nil }
            return .redirect(room: room, node: m["node"]?.stringValue ?? "", path: path)
        case "phoneStep":
            return PhoneStep(json: m).map(ServerMessage.phoneStep)
        case "phoneProgress":
            guard let step = m["step"]?.intValue else { return nil }
            return .phoneProgress(
                step: step, done: m["done"]?.arrayValue?.compactMap { $0.stringValue.map(PlayerID.init) } ?? [],
                remainingMs: m["remainingMs"]?.intValue
            )
        case "album":
            guard let chains = m["chains"]?.arrayValue else { return nil }
            return .album(chains.compactMap(AlbumChain.init(json:)))
        case "albumReveal":
            guard let chain = m["chain"]?.intValue, let entry = m["entry"]?.intValue else { return nil }
            return .albumReveal(chain: chain, entry: entry)
        default:
            return nil
        }
    }
}

extension JSONValue {
    /// A player id the server sent (any non-empty string: the server made it).
    func playerID(_ key: String) -> PlayerID? {
        guard let text = self[key]?.stringValue, !text.isEmpty else { return nil }
        return PlayerID(text)
    }

    /// A room code the server sent; one of another form is taken as it is, since only the
    /// server hands codes out.
    fileprivate func roomCode(_ key: String) -> RoomCode? {
        guard let text = self[key]?.stringValue, !text.isEmpty else { return nil }
        return RoomCode(parsing: text) ?? RoomCode(trusted: text)
    }
}

extension Avatar {
    /// Nil when a part is missing or out of range (the player is then shown the standard one).
    fileprivate init?(json: JSONValue) {
        guard let color = json["color"]?.intValue, let eyes = json["eyes"]?.intValue,
              let mouth = json["mouth"]?.intValue, let accessory = json["accessory"]?.intValue else { return nil }
        self.init(color: color, eyes: eyes, mouth: mouth, accessory: accessory)
    }
}

extension RatingCounts {
    fileprivate init(json: JSONValue) {
        self.init(likes: json["likes"]?.intValue ?? 0, dislikes: json["dislikes"]?.intValue ?? 0)
    }
}

extension RoomSummary {
    fileprivate init?(json: JSONValue) {
        guard let code = json.roomCode("code"), let phase = json["phase"]?.stringValue.flatMap(GamePhase.init(rawValue:))
        else { return nil }
        let players = json["players"]?.intValue ?? 0
        let bots = json["bots"]?.intValue ?? 0
        self.init(
            code: code, name: json["name"]?.stringValue ?? "", isPublic: json["public"]?.boolValue ?? true,
            players: players, maxPlayers: json["maxPlayers"]?.intValue ?? 0, phase: phase, bots: bots,
            language: json["language"]?.stringValue ?? RoomSettings().language, round: json["round"]?.intValue ?? 0,
            rounds: json["rounds"]?.intValue ?? RoomSettings().rounds
        )
    }
}

extension PlayerView {
    fileprivate init?(json: JSONValue) {
        guard let id = json.playerID("id") else { return nil }
        self.init(
            id: id, name: json["name"]?.stringValue ?? "", score: json["score"]?.intValue ?? 0,
            ready: json["ready"]?.boolValue ?? false, connected: json["connected"]?.boolValue ?? true,
            guessed: json["guessed"]?.boolValue ?? false, spectator: json["spectator"]?.boolValue ?? false,
            avatar: json["avatar"].flatMap(Avatar.init(json:)) ?? .standard(for: id), bot: json["bot"]?.boolValue ?? false,
            watching: json["watching"]?.boolValue ?? false
        )
    }
}

extension RankEntry {
    fileprivate init?(json: JSONValue) {
        guard let id = json.playerID("id") else { return nil }
        self.init(
            id: id, name: json["name"]?.stringValue ?? "", score: json["score"]?.intValue ?? 0,
            place: json["place"]?.intValue ?? 0, avatar: json["avatar"].flatMap(Avatar.init(json:)),
            bot: json["bot"]?.boolValue == true ? true : nil
        )
    }
}

extension RoomSettings {
    /// The settings as sent; a field left out keeps its default.
    fileprivate init(json: JSONValue?) {
        self.init()
        guard let json else { return }
        if let v = json["rounds"]?.intValue { rounds = v }
        if let v = json["drawTimeSec"]?.intValue { drawTimeSec = v }
        if let v = json["maxPlayers"]?.intValue { maxPlayers = v }
        if let v = json["wordChoices"]?.intValue { wordChoices = v }
        if let v = json["hints"]?.intValue { hints = v }
        if let v = json["language"]?.stringValue { language = v }
        if let v = json["customWords"]?.arrayValue { customWords = v.compactMap(\.stringValue) }
        if let v = json["customOnly"]?.boolValue { customOnly = v }
        if let v = json["streamer"]?.boolValue { streamer = v }
        if let v = json["mode"]?.stringValue.flatMap(GameMode.init(rawValue:)) { mode = v }
        if let v = json["writeTimeSec"]?.intValue { writeTimeSec = v }
    }
}

extension RoomView {
    fileprivate init?(json: JSONValue) {
        guard let code = json.roomCode("code") else { return nil }
        let settings = RoomSettings(json: json["settings"])
        let sentCount = json["settings"]?["customWordCount"]?.intValue
        let ratings = json["ratings"].map(RatingCounts.init(json:))
        let myRating = json["ratings"] == nil ? nil : json["myRating"]
        self.init(
            code: code, name: json["name"]?.stringValue ?? "", isPublic: json["public"]?.boolValue ?? false,
            host: json.playerID("host"), settings: settings,
            phase: json["phase"]?.stringValue.flatMap(GamePhase.init(rawValue:)) ?? .lobby,
            round: json["round"]?.intValue ?? 0, rounds: json["rounds"]?.intValue ?? settings.rounds,
            drawer: json.playerID("drawer"), mask: json["mask"]?.stringValue, word: json["word"]?.stringValue,
            remainingMs: json["remainingMs"]?.intValue ?? 0,
            players: json["players"]?.arrayValue?.compactMap(PlayerView.init(json:)) ?? [],
            canvasWidth: json["canvas"]?["w"]?.intValue ?? 800, canvasHeight: json["canvas"]?["h"]?.intValue ?? 600,
            ratings: ratings, showsMyRating: myRating != nil,
            myRating: myRating?.stringValue.flatMap(Rating.init(rawValue:)),
            // The host's copy lists the words; anyone else's only counts them.
            showsCustomWords: !settings.customWords.isEmpty,
            solvedWord: json["solvedWord"]?.stringValue, nextGameMs: json["nextGameMs"]?.intValue,
            customWordCount: (sentCount ?? 0) == settings.customWords.count ? nil : sentCount
        )
    }
}

extension ChatLine {
    /// A `chatHistory` line: a chat line, or a game event with its `kind`. `sequence` and
    /// `visibleTo` are the server's bookkeeping and not sent: 0 and nil here.
    fileprivate init?(json: JSONValue) {
        guard let kindText = json["kind"]?.stringValue else {
            guard let from = json.playerID("from"), let text = json["text"]?.stringValue else { return nil }
            self.init(sequence: 0, from: from, name: json["name"]?.stringValue ?? "", text: text)
            return
        }
        guard let kind = Kind(rawValue: kindText) else { return nil }
        self.init(
            sequence: 0, from: json.playerID("playerId") ?? PlayerID(""), name: json["name"]?.stringValue ?? "",
            text: json["text"]?.stringValue ?? "", kind: kind,
            word: kind == .reveal ? json["word"]?.stringValue ?? "" : nil,
            reason: kind == .reveal ? json["reason"]?.stringValue.flatMap(TurnEndReason.init(rawValue:)) ?? .time : nil
        )
    }
}

extension Notice {
    fileprivate init?(json: JSONValue) {
        switch json["code"]?.stringValue {
        case "bot_passed":
            guard let id = json.playerID("playerId") else { return nil }
            self = .botPassed(id, name: json["name"]?.stringValue ?? "")
        case "slow_down":
            self = .slowDown(retryMs: json["retryMs"]?.intValue ?? 0)
        case "settings_adjusted":
            let fields = (json["fields"]?.objectValue ?? [:]).sorted { $0.key < $1.key }
            self = .settingsAdjusted(fields.compactMap { field, value in
                if let number = value.intValue { return AdjustedSetting(field: field, value: .number(number)) }
                if let text = value.stringValue { return AdjustedSetting(field: field, value: .text(text)) }
                return nil
            })
        default:
            return nil
        }
    }
}

extension GameDrawing {
    fileprivate init?(json: JSONValue) {
        guard let id = json["id"]?.stringValue.flatMap({ DrawingID(parsing: $0) }), let drawer = json.playerID("drawer")
        else { return nil }
        self.init(
            id: id, word: json["word"]?.stringValue ?? "", drawer: drawer, name: json["name"]?.stringValue ?? "",
            round: json["round"]?.intValue ?? 0
        )
    }
}
