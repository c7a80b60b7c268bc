/// A player's report of a drawing or a chat line (`{"t":"report",...}`, docs/PROTOCOL.md
/// section 9): what it points at and why. The shell checks that the reporter could see it
/// and captures the evidence.
public struct ReportRequest: Sendable, Hashable {
    public enum Target: Sendable, Hashable {
        /// A finished turn's drawing by its id, or (nil) the room's canvas as it is now.
        case drawing(DrawingID?)
        /// A chat line the reporter was shown: who said it and its exact text.
        case chat(from: PlayerID, text: String)
    }

    public var target: Target
    public var reason: ReportReason

    public init(target: Target, reason: ReportReason) {
        self.target = target
        self.reason = reason
    }
}

/// The reasons a client offers; anything else is `bad_message`.
public enum ReportReason: String, Sendable, Hashable, CaseIterable, Codable {
    case offensive
    case sexual
    case hateful
    case spam
    /// The drawer wrote the word, or a chat line gave it away.
    case revealsWord = "reveals_word"
    case other
}
