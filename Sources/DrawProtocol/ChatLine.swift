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
    package static func event(_ kind: Kind, from: PlayerID = PlayerID(""), name: String = "", text: String = "",
                      visibleTo: [PlayerID]? = nil, word: String? = nil, reason: TurnEndReason? = nil) -> ChatLine {
        ChatLine(sequence: 0, from: from, name: name, text: text, visibleTo: visibleTo, kind: kind, word: word, reason: reason)
    }
}
