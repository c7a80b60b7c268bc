extension ClientMessage {
    /// The message as one UTF-8 JSON object, ready for a text frame: the form
    /// `ClientMessage.decode` reads back to this same message.
    public func jsonBytes() -> [UInt8] {
        var w = JSONWriter()
        w.beginObject()
        w.field("t", type)
        switch self {
        case .hello(let name, let token, let avatar):
            w.field("name", name)
            if let token { w.field("token", token) }
            if let avatar {
                w.key("avatar")
                avatar.write(to: &w)
            }
        case .rooms, .quickplay, .leave, .start, .skip, .albumNext:
            break
        case .phoneSubmit(let text):
            if let text { w.field("text", text) }
        case .create(let name, let isPublic, let settings):
            if let name { w.field("name", name) }
            w.field("public", isPublic)
            w.key("settings")
            settings.write(to: &w)
        case .join(let code, let watch):
            w.field("code", code)
            if watch { w.field("watch", true) }
        case .invite(let id), .kick(let id), .votekick(let id), .removeBot(let id):
            w.field("playerId", id.rawValue)
        case .settings(let patch):
            w.key("settings")
            patch.write(to: &w)
        case .ready(let ready):
            w.field("ready", ready)
        case .spectate(let on):
            w.field("on", on)
        case .chat(let text), .guess(let text):
            w.field("text", text)
        case .choose(let index):
            w.field("index", index)
        case .rate(let rating):
            w.field("value", rating?.rawValue ?? "none")
        case .addBot(let level):
            w.field("level", level.rawValue)
        case .gallery(let listed):
            w.field("listed", listed)
        case .report(let request):
            request.writeFields(to: &w)
        }
        w.endObject()
        return w.bytes
    }

    /// The JSON text, for a text frame, tests and logs.
    public var jsonString: String { String(decoding: jsonBytes(), as: UTF8.self) }
}

extension SettingsPatch {
    /// Only the fields set: the server keeps (or defaults) the others.
    func write(to w: inout JSONWriter) {
        w.beginObject()
        if let rounds { w.field("rounds", rounds) }
        if let drawTimeSec { w.field("drawTimeSec", drawTimeSec) }
        if let maxPlayers { w.field("maxPlayers", maxPlayers) }
        if let wordChoices { w.field("wordChoices", wordChoices) }
        if let hints { w.field("hints", hints) }
        if let language { w.field("language", language) }
        if let customWords {
            w.key("customWords")
            w.beginArray()
            for word in customWords { w.value(word) }
            w.endArray()
        }
        if let customOnly { w.field("customOnly", customOnly) }
        if let streamer { w.field("streamer", streamer) }
        if let mode { w.field("mode", mode.rawValue) }
        if let writeTimeSec { w.field("writeTimeSec", writeTimeSec) }
        w.endObject()
    }
}

extension ReportRequest {
    func writeFields(to w: inout JSONWriter) {
        switch target {
        case .drawing(let id):
            w.field("kind", "drawing")
            if let id { w.field("drawing", id.rawValue) }
        case .chat(let from, let text):
            w.field("kind", "chat")
            w.field("from", from.rawValue)
            w.field("text", text)
        }
        w.field("reason", reason.rawValue)
    }
}
