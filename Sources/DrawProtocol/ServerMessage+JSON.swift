extension ServerMessage {
    /// The message as one UTF-8 JSON object, ready for a text frame.
    public func jsonBytes() -> [UInt8] {
        var w = JSONWriter()
        w.beginObject()
        w.field("t", type)
        switch self {
        case .welcome(let id, let token, let resumed, let name, let avatar):
            w.field("playerId", id.rawValue)
            w.field("token", token)
            w.field("resumed", resumed)
            w.field("name", name)
            w.key("avatar")
            (avatar ?? .standard(for: id)).write(to: &w)
        case .error(let error):
            w.field("code", error.code.rawValue)
            w.field("message", error.message)
            w.field("ref", error.ref)
            if let retryAfterMs = error.retryAfterMs { w.field("retryAfterMs", retryAfterMs) }
        case .rooms(let rooms):
            w.key("rooms")
            w.beginArray()
            for room in rooms { room.write(to: &w) }
            w.endArray()
        case .room(let view):
            view.writeFields(to: &w)
        case .joined(let player):
            w.key("player")
            player.write(to: &w)
        case .left(let id, let reason):
            w.field("playerId", id.rawValue)
            w.field("reason", reason.rawValue)
        case .ready(let id, let ready):
            w.field("playerId", id.rawValue)
            w.field("ready", ready)
        case .chat(let from, let name, let text):
            w.field("from", from.rawValue)
            w.field("name", name)
            w.field("text", text)
        case .choosing(let drawer, let remaining):
            w.field("drawer", drawer.rawValue)
            w.field("remainingMs", remaining)
        case .choose(let words, let remaining):
            w.key("words")
            w.beginArray()
            for word in words { w.value(word) }
            w.endArray()
            w.field("remainingMs", remaining)
        case .turn(let drawer, let round, let mask, let remaining, let word):
            w.field("drawer", drawer.rawValue)
            w.field("round", round)
            w.field("mask", mask)
            w.field("remainingMs", remaining)
            if let word { w.field("word", word) }
        case .hint(let mask):
            w.field("mask", mask)
        case .close(let text):
            w.field("text", text)
        case .guessed(let id, let points, let word):
            w.field("playerId", id.rawValue)
            w.field("points", points)
            if let word { w.field("word", word) }
        case .turnEnd(let word, let reason, let scores, let ratings, let drawing):
            w.field("word", word)
            if let drawing {
                w.key("drawing")
                w.beginObject()
                w.field("id", drawing.rawValue)
                w.field("png", drawing.pngPath)
                w.field("timelapse", drawing.timelapsePath)
                w.endObject()
            }
            w.key("ratings")
            ratings.write(to: &w)
            w.field("reason", reason.rawValue)
            w.key("scores")
            w.beginObject()
            for (id, delta) in scores.sorted(by: { $0.key < $1.key }) { w.field(id.rawValue, delta) }
            w.endObject()
        case .gameEnd(let ranking):
            w.key("ranking")
            w.beginArray()
            for entry in ranking {
                w.beginObject()
                w.field("id", entry.id.rawValue)
                w.field("name", entry.name)
                w.field("score", entry.score)
                w.field("place", entry.place)
                if entry.bot == true { w.field("bot", true) }
                w.key("avatar")
                (entry.avatar ?? .standard(for: entry.id)).write(to: &w)
                w.endObject()
            }
            w.endArray()
        case .invited(let from, let name, let code, let avatar):
            w.key("from")
            w.beginObject()
            w.field("id", from.rawValue)
            w.field("name", name)
            w.key("avatar")
            (avatar ?? .standard(for: from)).write(to: &w)
            w.endObject()
            w.field("code", code.rawValue)
        case .kicked(let code), .closed(let code):
            w.field("code", code.rawValue)
        case .canvas(let width, let height):
            w.field("w", width)
            w.field("h", height)
        case .votekick(let target, let votes, let needed):
            w.field("target", target.rawValue)
            w.field("votes", votes)
            w.field("needed", needed)
        case .ratings(let counts):
            w.field("likes", counts.likes)
            w.field("dislikes", counts.dislikes)
        case .chatHistory(let lines):
            w.key("lines")
            w.beginArray()
            for line in lines { line.write(to: &w) }
            w.endArray()
        case .gallery(let listed):
            w.field("listed", listed)
        case .reported(let id):
            w.field("id", id)
        case .notice(let notice):
            notice.writeFields(to: &w)
        case .gameDrawings(let drawings):
            w.key("drawings")
            w.beginArray()
            for drawing in drawings {
                w.beginObject()
                w.field("id", drawing.id.rawValue)
                w.field("png", drawing.id.pngPath)
                w.field("timelapse", drawing.id.timelapsePath)
                w.field("word", drawing.word)
                w.field("drawer", drawing.drawer.rawValue)
                w.field("name", drawing.name)
                w.field("round", drawing.round)
                w.endObject()
            }
            w.endArray()
        case .redirect(let room, let node, let path):
            w.field("room", room.rawValue)
            w.field("node", node)
            w.field("path", path)
        case .phoneStep(let step):
            step.writeFields(to: &w)
        case .phoneProgress(let step, let done, let remainingMs):
            w.field("step", step)
            w.key("done")
            w.beginArray()
            for id in done { w.value(id.rawValue) }
            w.endArray()
            if let remainingMs { w.field("remainingMs", remainingMs) }
        case .album(let chains):
            w.key("chains")
            w.beginArray()
            for chain in chains { chain.write(to: &w) }
            w.endArray()
        case .albumReveal(let chain, let entry):
            w.field("chain", chain)
            w.field("entry", entry)
        }
        w.endObject()
        return w.bytes
    }

    /// The JSON text, for tests and logs.
    public var jsonString: String { String(decoding: jsonBytes(), as: UTF8.self) }
}

extension RoomSummary {
    func write(to w: inout JSONWriter) {
        w.beginObject()
        w.field("code", code.rawValue)
        w.field("name", name)
        w.field("public", isPublic)
        w.field("players", players)
        w.field("maxPlayers", maxPlayers)
        w.field("phase", phase.rawValue)
        w.field("bots", bots)
        w.field("language", language)
        w.field("round", round)
        w.field("rounds", rounds)
        w.endObject()
    }

    /// The summary as a standalone JSON object (for the HTTP room list).
    public func jsonBytes() -> [UInt8] {
        var w = JSONWriter()
        write(to: &w)
        return w.bytes
    }
}

extension PlayerView {
    func write(to w: inout JSONWriter) {
        w.beginObject()
        w.field("id", id.rawValue)
        w.field("name", name)
        w.field("score", score)
        w.field("ready", ready)
        w.field("connected", connected)
        w.field("guessed", guessed)
        w.field("spectator", spectator)
        if bot { w.field("bot", true) }
        if watching { w.field("watching", true) }
        w.key("avatar")
        avatar.write(to: &w)
        w.endObject()
    }
}

extension RoomSettings {
    /// - Parameter showingCustomWords: false lists no custom words (only their count).
    /// - Parameter customWordCount: the count to send when it is not `customWords.count`
    ///   (a decoded copy that did not show the words).
    func write(to w: inout JSONWriter, showingCustomWords: Bool = true, customWordCount: Int? = nil) {
        w.beginObject()
        w.field("rounds", rounds)
        w.field("drawTimeSec", drawTimeSec)
        w.field("maxPlayers", maxPlayers)
        w.field("wordChoices", wordChoices)
        w.field("hints", hints)
        w.field("language", language)
        w.key("customWords")
        w.beginArray()
        if showingCustomWords {
            for word in customWords { w.value(word) }
        }
        w.endArray()
        w.field("customWordCount", customWordCount ?? customWords.count)
        w.field("customOnly", customOnly)
        w.field("streamer", streamer)
        w.field("mode", mode.rawValue)
        w.field("writeTimeSec", writeTimeSec)
        w.endObject()
    }
}

extension RoomView {
    func writeFields(to w: inout JSONWriter) {
        w.field("code", code.rawValue)
        w.field("name", name)
        w.field("public", isPublic)
        w.field("host", host?.rawValue)
        w.key("settings")
        settings.write(to: &w, showingCustomWords: showsCustomWords, customWordCount: customWordCount)
        w.field("phase", phase.rawValue)
        w.field("round", round)
        w.field("rounds", rounds)
        w.field("drawer", drawer?.rawValue)
        w.field("mask", mask)
        if let word { w.field("word", word) }
        if let solvedWord { w.field("solvedWord", solvedWord) }
        w.field("remainingMs", remainingMs)
        if let nextGameMs { w.field("nextGameMs", nextGameMs) }
        w.key("players")
        w.beginArray()
        for player in players { player.write(to: &w) }
        w.endArray()
        w.key("canvas")
        w.beginObject()
        w.field("w", canvasWidth)
        w.field("h", canvasHeight)
        w.endObject()
        if let ratings {
            w.key("ratings")
            ratings.write(to: &w)
            if showsMyRating { w.field("myRating", myRating?.rawValue) }
        }
    }

    /// The room state as a standalone JSON object (moderator HTTP API).
    public func jsonBytes() -> [UInt8] {
        var w = JSONWriter()
        w.beginObject()
        writeFields(to: &w)
        w.endObject()
        return w.bytes
    }
}

extension Notice {
    func writeFields(to w: inout JSONWriter) {
        w.field("code", code)
        switch self {
        case .botPassed(let id, let name):
            w.field("playerId", id.rawValue)
            w.field("name", name)
        case .slowDown(let retryMs):
            w.field("retryMs", retryMs)
        case .settingsAdjusted(let fields):
            w.key("fields")
            w.beginObject()
            for adjusted in fields {
                switch adjusted.value {
                case .number(let n): w.field(adjusted.field, n)
                case .text(let t): w.field(adjusted.field, t)
                }
            }
            w.endObject()
        }
    }
}

extension ChatLine {
    /// A history line as sent: a chat line as `chat` carries it, an event with its `kind`.
    func write(to w: inout JSONWriter) {
        w.beginObject()
        switch kind {
        case nil:
            w.field("from", from.rawValue)
            w.field("name", name)
            w.field("text", text)
        case .guessed?, .passed?:
            w.field("kind", kind?.rawValue)
            w.field("playerId", from.rawValue)
            w.field("name", name)
        case .close?:
            w.field("kind", kind?.rawValue)
            w.field("text", text)
        case .reveal?:
            w.field("kind", kind?.rawValue)
            w.field("word", word ?? "")
            w.field("reason", (reason ?? .time).rawValue)
        }
        w.endObject()
    }
}
