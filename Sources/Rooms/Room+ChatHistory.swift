import DrawProtocol

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
