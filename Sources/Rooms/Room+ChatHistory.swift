/// One line as kept for `chatHistory`: what was said (or, with a `kind`, what happened in
/// the game), and who could see it.
public struct ChatLine: Sendable, Hashable, Codable {
    /// What a line without `kind` (a chat line) is not.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// `from` guessed the word.
        case guessed
        /// `from`'s guess `text` was close; only `from` saw it.
        case close
        /// The turn ended: `word` and `reason`.
        case reveal
        /// The bot `from` passed its turn.
        case passed
    }

    /// The room's running number of the line, compared with `Member.chatSince`.
    public var sequence: Int
    public var from: PlayerID
    public var name: String
    public var text: String
    /// The members the line went to when it is not everyone in the room then (the
    /// drawer and those who guessed, or a spectator alone); nil for everyone.
    public var visibleTo: [PlayerID]?
    /// Nil for a chat line (and in snapshots written before issue 39).
    public var kind: Kind? = nil
    /// A `reveal`'s word and why its turn ended.
    public var word: String? = nil
    public var reason: TurnEndReason? = nil

    public init(
        sequence: Int, from: PlayerID, name: String, text: String, visibleTo: [PlayerID]? = nil,
        kind: Kind? = nil, word: String? = nil, reason: TurnEndReason? = nil
    ) {
        self.sequence = sequence
        self.from = from
        self.name = name
        self.text = text
        self.visibleTo = visibleTo
        self.kind = kind
        self.word = word
        self.reason = reason
    }

    /// A game event's line; the room numbers it when it is logged.
    static func event(_ kind: Kind, from: PlayerID = PlayerID(""), name: String = "", text: String = "",
                      visibleTo: [PlayerID]? = nil, word: String? = nil, reason: TurnEndReason? = nil) -> ChatLine {
        ChatLine(sequence: 0, from: from, name: name, text: text, visibleTo: visibleTo, kind: kind, word: word, reason: reason)
    }
}

extension Room {
    /// Lines a player gets back on resume.
    public static let chatHistoryLimit = 50
    /// Lines the room keeps at most. More than `chatHistoryLimit`, so that a player who
    /// could not see some recent lines still gets its own last 50, but bounded, since the
    /// log is part of every stored snapshot.
    public static let chatLogLimit = 120

    /// Keeps the `chat` messages among `effects`, each with its audience as it was then,
    /// so history follows exactly the rules the lines were sent under.
    mutating func recordChat(_ effects: [RoomEffect]) {
        for case .send(.chat(let from, let name, let text), let audience) in effects {
            let visibleTo: [PlayerID]? = switch audience {
            case .everyone: nil
            case .everyoneExcept(let excluded): members.map(\.id).filter { $0 != excluded }
            case .players(let ids): ids
            case .player(let id): [id]
            }
            chatLog.append(ChatLine(sequence: chatSequence, from: from, name: name, text: text, visibleTo: visibleTo))
            chatSequence += 1
        }
        pruneChatLog()
    }

    /// Keeps a game event for the history (`ChatLine.Kind`), numbered as the next line.
    mutating func logEvent(_ line: ChatLine) {
        var line = line
        line.sequence = chatSequence
        chatSequence += 1
        chatLog.append(line)
        pruneChatLog()
    }

    /// Whether `member` could see `line`: it was in the room then, and in the audience.
    func canSee(_ line: ChatLine, _ member: Member) -> Bool {
        line.sequence >= member.chatSince && (line.visibleTo?.contains(member.id) ?? true)
    }

    /// The last `chatHistoryLimit` lines `id` could see, oldest first.
    public func chatHistory(for id: PlayerID) -> [ChatLine] {
        guard let member = member(id) else { return [] }
        var lines: [ChatLine] = []
        for line in chatLog.reversed() where canSee(line, member) {
            lines.append(line)
            if lines.count == Self.chatHistoryLimit { break }
        }
        return lines.reversed()
    }

    /// Drops the oldest lines no current member still needs, and any beyond `chatLogLimit`.
    mutating func pruneChatLog() {
        while chatLog.count > Self.chatHistoryLimit {
            if chatLog.count <= Self.chatLogLimit {
                let oldest = chatLog[0]
                let needed = members.contains { member in
                    guard canSee(oldest, member) else { return false }
                    return chatLog.dropFirst().count(where: { canSee($0, member) }) < Self.chatHistoryLimit
                }
                if needed { break }
            }
            chatLog.removeFirst()
        }
    }

    /// The `chatHistory` message for a resuming member.
    func chatHistoryEffect(for id: PlayerID) -> RoomEffect {
        .send(.chatHistory(chatHistory(for: id).map { line in
            var shown = line
            shown.visibleTo = nil
            return shown
        }), to: .player(id))
    }
}
