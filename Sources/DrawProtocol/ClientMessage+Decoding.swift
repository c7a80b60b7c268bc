extension ClientMessage {
    /// Decodes one text frame. Unknown fields are ignored; errors carry the protocol's
    /// code (`bad_json` when the text is not a JSON object, `bad_message` for an unknown
    /// `t` or a missing or mistyped field) and the `ref` to answer with.
    public static func decode(_ bytes: some Collection<UInt8>) -> Result<ClientMessage, ProtocolError> {
        guard let value = JSONValue.parse(bytes), case .object(let object) = value else {
            return .failure(ProtocolError(.badJSON, "a text frame must hold one JSON object", ref: ""))
        }
        guard case .string(let type)? = object["t"] else {
            return .failure(ProtocolError(.badMessage, "the message has no string field \"t\"", ref: ""))
        }
        var fields = Fields(object: object)
        do {
            return .success(try decode(type: type, fields: &fields))
        } catch {
            return .failure(error.referencing(type))
        }
    }

    /// The `t` of a text frame that holds a JSON object with a string `t`, else "": the
    /// `ref` for refusing a frame without decoding it (one over the text size limit).
    public static func type(of bytes: some Collection<UInt8>) -> String {
        guard case .object(let object)? = JSONValue.parse(bytes), case .string(let type)? = object["t"] else { return "" }
        return type
    }

    private static func decode(type: String, fields: inout Fields) throws(ProtocolError) -> ClientMessage {
        switch type {
        case "hello":
            return .hello(name: try fields.string("name"), token: try fields.optionalString("token"), avatar: try fields.avatar("avatar"))
        case "rooms": return .rooms
        case "create":
            return .create(
                name: try fields.optionalString("name"),
                isPublic: try fields.optionalBool("public") ?? false,
                settings: try fields.settings("settings") ?? SettingsPatch()
            )
        case "join": return .join(code: try fields.string("code"), watch: try fields.optionalBool("watch") ?? false)
        case "quickplay": return .quickplay
        case "leave": return .leave
        case "invite": return .invite(playerID: PlayerID(try fields.string("playerId")))
        case "settings":
            guard let patch = try fields.settings("settings") else {
                throw ProtocolError(.badMessage, "missing object field \"settings\"")
            }
            return .settings(patch)
        case "ready": return .ready(try fields.optionalBool("ready") ?? true)
        case "start": return .start
        case "kick": return .kick(playerID: PlayerID(try fields.string("playerId")))
        case "votekick": return .votekick(playerID: PlayerID(try fields.string("playerId")))
        case "spectate": return .spectate(try fields.optionalBool("on") ?? true)
        case "chat": return .chat(try fields.string("text"))
        case "guess": return .guess(try fields.string("text"))
        case "choose": return .choose(index: try fields.integer("index"))
        case "skip": return .skip
        case "rate":
            switch try fields.string("value") {
            case "like": return .rate(.like)
            case "dislike": return .rate(.dislike)
            case "none": return .rate(nil)
            case let other: throw ProtocolError(.badMessage, "value must be like, dislike or none, not \"\(other.prefix(20))\"")
            }
        case "addBot":
            let level = try fields.optionalString("level") ?? BotLevel.normal.rawValue
            guard let parsed = BotLevel(rawValue: level) else {
                throw ProtocolError(.badMessage, "level must be easy, normal or hard, not \"\(level.prefix(20))\"")
            }
            return .addBot(level: parsed)
        case "removeBot": return .removeBot(playerID: PlayerID(try fields.string("playerId")))
        case "gallery":
            guard let listed = try fields.optionalBool("listed") else {
                throw ProtocolError(.badMessage, "missing boolean field \"listed\"")
            }
            return .gallery(listed: listed)
        case "report":
            return .report(try reportRequest(&fields))
        case "phoneSubmit": return .phoneSubmit(text: try fields.optionalString("text"))
        case "albumNext": return .albumNext
        default:
            throw ProtocolError(.badMessage, "unknown message type \"\(type.prefix(40))\"")
        }
    }
}

extension ClientMessage {
    /// `{"t":"report","kind":"drawing","drawing":"ID"?,"reason":R}` or
    /// `{"t":"report","kind":"chat","from":"<player id>","text":"<line>","reason":R}`.
    fileprivate static func reportRequest(_ fields: inout Fields) throws(ProtocolError) -> ReportRequest {
        let reasonText = try fields.string("reason")
        guard let reason = ReportReason(rawValue: reasonText) else {
            let known = ReportReason.allCases.map(\.rawValue).joined(separator: ", ")
            throw ProtocolError(.badMessage, "reason must be one of \(known), not \"\(reasonText.prefix(20))\"")
        }
        switch try fields.string("kind") {
        case "drawing":
            guard let text = try fields.optionalString("drawing") else { return ReportRequest(target: .drawing(nil), reason: reason) }
            guard let id = DrawingID(parsing: text) else { throw ProtocolError(.badMessage, "drawing is not a drawing id") }
            return ReportRequest(target: .drawing(id), reason: reason)
        case "chat":
            let from = PlayerID(try fields.string("from"))
            let text = try fields.string("text")
            guard text.count <= 400 else { throw ProtocolError(.tooLarge, "text is longer than any chat line") }
            return ReportRequest(target: .chat(from: from, text: text), reason: reason)
        case let other:
            throw ProtocolError(.badMessage, "kind must be drawing or chat, not \"\(other.prefix(20))\"")
        }
    }
}

/// Typed access to a message's fields with protocol errors naming the field.
private struct Fields {
    let object: [String: JSONValue]

    func string(_ key: String) throws(ProtocolError) -> String {
        guard let value = object[key] else { throw missing(key, "string") }
        guard case .string(let text) = value else { throw mistyped(key, "string", value) }
        return text
    }

    func optionalString(_ key: String) throws(ProtocolError) -> String? {
        switch object[key] {
        case nil, .null?: return nil
        case .string(let text)?: return text
        case let value?: throw mistyped(key, "string", value)
        }
    }

    /// An avatar object (protocol additions, "Avatars"); absent or null is none.
    func avatar(_ key: String) throws(ProtocolError) -> Avatar? {
        switch object[key] {
        case nil, .null?: return nil
        case .object(let parts)?:
            switch Avatar.parse(parts) {
            case .success(let avatar): return avatar
            case .failure(let error): throw error
            }
        case let value?: throw mistyped(key, "object", value)
        }
    }

    func optionalBool(_ key: String) throws(ProtocolError) -> Bool? {
        switch object[key] {
        case nil, .null?: return nil
        case .bool(let flag)?: return flag
        case let value?: throw mistyped(key, "boolean", value)
        }
    }

    func integer(_ key: String) throws(ProtocolError) -> Int {
        guard let value = object[key] else { throw missing(key, "integer") }
        guard let number = Self.integer(value) else { throw mistyped(key, "integer", value) }
        return number
    }

    func settings(_ key: String) throws(ProtocolError) -> SettingsPatch? {
        switch object[key] {
        case nil, .null?: return nil
        case .object(let settings)?: return try Fields(object: settings).settingsPatch()
        case let value?: throw mistyped(key, "object", value)
        }
    }

    private func settingsPatch() throws(ProtocolError) -> SettingsPatch {
        var patch = SettingsPatch()
        patch.rounds = try optionalInteger("rounds")
        patch.drawTimeSec = try optionalInteger("drawTimeSec")
        patch.maxPlayers = try optionalInteger("maxPlayers")
        patch.wordChoices = try optionalInteger("wordChoices")
        patch.hints = try optionalInteger("hints")
        patch.language = try optionalString("language")
        patch.customOnly = try optionalBool("customOnly")
        patch.streamer = try optionalBool("streamer")
        patch.writeTimeSec = try optionalInteger("writeTimeSec")
        if let mode = try optionalString("mode") {
            guard let parsed = GameMode(rawValue: mode) else {
                throw ProtocolError(.badMessage, "mode must be classic or telephone, not \"\(mode.prefix(20))\"")
            }
            patch.mode = parsed
        }
        switch object["customWords"] {
        case nil, .null?: break
        case .array(let items)?:
            // Clamped like every setting: `RoomSettings.applying` keeps the first 500 usable words.
            var words: [String] = []
            for item in items {
                guard case .string(let word) = item else { throw mistyped("customWords", "array of strings", item) }
                words.append(word)
            }
            patch.customWords = words
        case let value?: throw mistyped("customWords", "array of strings", value)
        }
        return patch
    }

    private func optionalInteger(_ key: String) throws(ProtocolError) -> Int? {
        switch object[key] {
        case nil, .null?: return nil
        case let value?:
            guard let number = Self.integer(value) else { throw mistyped(key, "integer", value) }
            return number
        }
    }

    /// Whole numbers only; huge values saturate so clamping still works.
    private static func integer(_ value: JSONValue) -> Int? {
        guard case .number(let number) = value, number.isFinite, number.rounded() == number else { return nil }
        if number >= 1e15 { return 1_000_000_000_000_000 }
        if number <= -1e15 { return -1_000_000_000_000_000 }
        return Int(number)
    }

    private func missing(_ key: String, _ type: String) -> ProtocolError {
        ProtocolError(.badMessage, "missing \(type) field \"\(key)\"")
    }

    private func mistyped(_ key: String, _ type: String, _ value: JSONValue) -> ProtocolError {
        ProtocolError(.badMessage, "field \"\(key)\" must be a \(type), not \(value.typeName)")
    }
}
