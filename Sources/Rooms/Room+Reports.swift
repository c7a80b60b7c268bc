import Canvas
import DrawProtocol

/// What a room knows about a reported drawing or chat line, captured the moment the report
/// is made, for the moderator (docs/PROTOCOL.md section 9).
public struct ReportEvidence: Sendable {
    /// The player the report is about: the line's author, or the drawer.
    public var reported: PlayerID?
    public var reportedName: String?
    /// The room's current stroke log, for a report of the canvas as it is now.
    public var strokes: StrokeLog?
    /// The chat lines the reporter could see, oldest first, ending with the newest.
    public var chat: [ChatLine]
    /// For a report of the canvas during a game's turn (`drawing` or `turnEnd`): that turn,
    /// so the shell can link the report to the turn's drawing once it exists.
    public var turn: TurnKey?

    public init(
        reported: PlayerID? = nil, reportedName: String? = nil, strokes: StrokeLog? = nil, chat: [ChatLine] = [], turn: TurnKey? = nil
    ) {
        self.reported = reported
        self.reportedName = reportedName
        self.strokes = strokes
        self.chat = chat
        self.turn = turn
    }
}

extension Room {
    /// Chat lines kept as evidence around a report.
    public static let reportChatLines = 20

    /// The evidence for `request` from `reporter`, or `unknown_target` when the reporter
    /// could not have seen what it reports: a chat line must be among its own visible
    /// history, word for word, and "the canvas now" needs a drawing on it. A drawing named
    /// by id is looked up by the shell; the room only adds its chat.
    public func evidence(for request: ReportRequest, from reporter: PlayerID) -> Result<ReportEvidence, ProtocolError> {
        guard isMember(reporter) else { return .failure(ProtocolError(.notInRoom, "report from your room")) }
        // Chat lines only: game events are not anyone's words.
        let history = chatHistory(for: reporter).filter { $0.kind == nil }
        var evidence = ReportEvidence(chat: Array(history.suffix(Self.reportChatLines)))
        switch request.target {
        case .chat(let from, let text):
            guard let index = history.lastIndex(where: { $0.from == from && $0.text == text }) else {
                return .failure(ProtocolError(.unknownTarget, "no such chat line in what you were shown"))
            }
            // The reported line in the middle of the lines kept.
            let half = Self.reportChatLines / 2
            let start = max(0, min(index - half, history.count - Self.reportChatLines))
            evidence.chat = Array(history[start..<min(history.count, start + Self.reportChatLines)])
            evidence.reported = from
            evidence.reportedName = history[index].name
        case .drawing(nil):
            guard !drawing.isEmpty else {
                return .failure(ProtocolError(.unknownTarget, "there is no drawing on the canvas"))
            }
            evidence.strokes = strokeLog
            if let progress = game {
                switch state {
                case .drawing, .turnEnd: evidence.turn = TurnKey(room: code, game: progress.number, turn: progress.turn)
                default: break
                }
            }
            if case .drawing(let turn) = state {
                evidence.reported = turn.drawer
                evidence.reportedName = member(turn.drawer)?.name
            }
        case .drawing:
            break
        }
        return .success(evidence)
    }
}
