/// Every message a client may send as a text frame (protocol sections 2 and 3).
public enum ClientMessage: Sendable, Hashable {
    /// `avatar` nil: none sent (a new player gets `Avatar.standard(for:)`, a resuming one keeps its own).
    case hello(name: String, token: String? = nil, avatar: Avatar? = nil)
    case rooms
    case create(name: String? = nil, isPublic: Bool = false, settings: SettingsPatch = SettingsPatch())
    /// `watch`: join as a screen that watches (a TV, `/tv`): a spectator that takes no seat,
    /// never hosts and never plays (issue 36).
    case join(code: String, watch: Bool = false)
    case quickplay
    case leave
    case invite(playerID: PlayerID)
    case settings(SettingsPatch)
    case ready(Bool = true)
    case start
    case kick(playerID: PlayerID)
    case votekick(playerID: PlayerID)
    case spectate(Bool = true)
    case chat(String)
    case guess(String)
    case choose(index: Int)
    case skip
    /// `rate`: nil withdraws the rating ("none").
    case rate(Rating?)
    /// Host only, in the room lobby: seats a bot.
    case addBot(level: BotLevel = .normal)
    /// Host only: takes a bot out of its seat.
    case removeBot(playerID: PlayerID)
    /// `gallery`: whether the sender's drawings from public rooms may be listed on the
    /// public gallery (a setting the client remembers and sends after every `welcome`).
    case gallery(listed: Bool)
    /// `report`: a drawing or a chat line, with a reason.
    case report(ReportRequest)
    /// Telephone mode: the text of a write or describe step, or (no text) a draw step's
    /// drawing is done (docs/PROTOCOL.md, "Telephone mode").
    case phoneSubmit(text: String?)
    /// Telephone mode, host only, during `album`: shows everyone the album's next entry.
    case albumNext

    /// The message's `t`, used as the `ref` of an error answering it.
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
        case .gallery: "gallery"
        case .report: "report"
        case .phoneSubmit: "phoneSubmit"
        case .albumNext: "albumNext"
        }
    }
}
