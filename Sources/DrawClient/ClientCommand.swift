/// Every text message a client sends (protocol section 3, plus docs/PROTOCOL.md's
/// additions). `raw` sends any JSON object as it is, for messages this library does not
/// know yet.
public enum ClientCommand: Sendable, Hashable {
    case hello(name: String, token: String? = nil, avatar: PlayerAvatar? = nil)
    case rooms
    case create(name: String? = nil, isPublic: Bool = false, settings: GameSettings = GameSettings())
    case join(code: String)
    case quickplay
    case leave
    case invite(playerID: String)
    case settings(GameSettings)
    case ready(Bool = true)
    case start
    case kick(playerID: String)
    case votekick(playerID: String)
    case spectate(Bool = true)
    case chat(String)
    case guess(String)
    case choose(index: Int)
    case skip
    case rate(DrawingRating)
    /// Host only, in the lobby: seats a bot (issue 23; a server without bots answers
    /// `bad_message`).
    case addBot(level: String)
    /// Host only: takes a bot out of the room (issue 23).
    case removeBot(playerID: String)
    /// Any JSON object, sent as it is (it should carry a string `"t"`).
    case raw(WireJSON)

    /// The message's `t`.
    public var type: String {
        switch self {
        case .hello: "hello"
        case .rooms: "rooms"
        case .create: "create"
        case .join: "join"
        case .quickplay: "quickplay"
        case .leave: "leave"
        case .invite: "invite"
        case .settings: "settings"
        case .ready: "ready"
        case .start: "start"
        case .kick: "kick"
        case .votekick: "votekick"
        case .spectate: "spectate"
        case .chat: "chat"
        case .guess: "guess"
        case .choose: "choose"
        case .skip: "skip"
        case .rate: "rate"
        case .addBot: "addBot"
        case .removeBot: "removeBot"
        case .raw(let json): json["t"]?.stringValue ?? ""
        }
    }

    /// The message as a JSON object.
    public var json: WireJSON {
        var fields: [String: WireJSON] = ["t": .string(type)]
        switch self {
        case .hello(let name, let token, let avatar):
            fields["name"] = .string(name)
            if let token { fields["token"] = .string(token) }
            if let avatar { fields["avatar"] = avatar.json }
        case .rooms, .quickplay, .leave, .start, .skip:
            break
        case .create(let name, let isPublic, let settings):
            if let name { fields["name"] = .string(name) }
            fields["public"] = .bool(isPublic)
            fields["settings"] = settings.json
        case .join(let code): fields["code"] = .string(code)
        case .invite(let id), .kick(let id), .votekick(let id), .removeBot(let id): fields["playerId"] = .string(id)
        case .addBot(let level): fields["level"] = .string(level)
        case .settings(let settings): fields["settings"] = settings.json
        case .ready(let ready): fields["ready"] = .bool(ready)
        case .spectate(let on): fields["on"] = .bool(on)
        case .chat(let text), .guess(let text): fields["text"] = .string(text)
        case .choose(let index): fields["index"] = .number(Double(index))
        case .rate(let rating): fields["value"] = .string(rating.rawValue)
        case .raw(let json): return json
        }
        return .object(fields)
    }

    /// The text frame to send.
    public var text: String { json.text }
}

/// A player's rating of the current drawing (docs/PROTOCOL.md section 8.3).
public enum DrawingRating: String, Sendable, Hashable {
    case like
    case dislike
    /// Withdraws the rating.
    case none
}
