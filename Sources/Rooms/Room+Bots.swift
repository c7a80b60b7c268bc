import DrawProtocol

/// Bot seats (`addBot`, `removeBot`). A bot is a member the server plays: always
/// connected and ready, never host, at most `maxPlayers - 1` of them so a seat stays free
/// for a person. The room only seats it; the shell runs its brain (`botSeated`).
extension Room {
    /// Names bots take, in order; a bot's number is added when one is taken.
    static let botNames = ["Pixel", "Doodle", "Sketchy", "Crayon", "Inky", "Scribbles", "Brushy", "Charcoal", "Pastel", "Smudge"]

    /// Seated bots.
    public var botCount: Int { members.lazy.filter(\.isBot).count }

    /// Whether a person (not a bot) still holds a seat or a spectator's place.
    /// People who play or may: not bots, and not screens that only watch (`/tv`), which
    /// keep no room alive on their own.
    var hasPeople: Bool { members.contains { !$0.isBot && !$0.watching } }

    mutating func addBot(_ level: BotLevel, from id: PlayerID, now: Timestamp) -> Result<[RoomEffect], ProtocolError> {
        guard host == id else { return .failure(ProtocolError(.notHost, "only the host can add bots")) }
        guard phase == .lobby else { return .failure(ProtocolError(.wrongPhase, "bots can be added only in the room lobby")) }
        guard !isTelephone else {
            return .failure(ProtocolError(.badMessage, "bots cannot play telephone: switch the room to classic to add bots"))
        }
        guard botCount < settings.maxPlayers - 1 else {
            return .failure(ProtocolError(.tooManyBots, "at most \(max(0, settings.maxPlayers - 1)) bots: one seat stays for a person"))
        }
        guard seatedCount < settings.maxPlayers, members.count < memberLimit else {
            return .failure(ProtocolError(.roomFull, "room \(code) is full"))
        }
        // The join order makes the id unique for the room's life; a person's id never has a dash.
        let botID = PlayerID("bot-\(code.rawValue)-\(nextOrder)")
        var member = Member(id: botID, name: nextBotName(), order: nextOrder)
        nextOrder += 1
        member.bot = level
        member.ready = true
        member.chatSince = chatSequence
        members.append(member)
        var effects: [RoomEffect] = [.botSeated(botID, level: level), .send(.joined(member.view), to: .everyone)]
        effects += roomBroadcast(now: now)
        effects += maybeAutoStart(now: now)
        return .success(effects)
    }

    mutating func removeBot(_ target: PlayerID, from id: PlayerID, now: Timestamp) -> Result<[RoomEffect], ProtocolError> {
        guard host == id else { return .failure(ProtocolError(.notHost, "only the host can remove bots")) }
        guard let bot = member(target) else { return .failure(ProtocolError(.notInRoom, "that player is not in this room")) }
        guard bot.isBot else { return .failure(ProtocolError(.notABot, "\(bot.name) is a person: use kick")) }
        return .success(remove(target, now: now, notice: nil))
    }

    /// The first free name of `botNames`, else one with a number.
    func nextBotName() -> String {
        let taken = Set(members.map(\.name))
        if let free = Self.botNames.first(where: { !taken.contains($0) }) { return free }
        var n = 2
        while taken.contains("\(Self.botNames[0]) \(n)") { n += 1 }
        return "\(Self.botNames[0]) \(n)"
    }

    /// The words a bot can draw in this room, in a stable order: those it has a drawing for
    /// in the room's language; in a custom-only room only the custom words among them (in
    /// the spelling its drawings are filed under).
    func botWords() -> [String] {
        let words = botVocabulary.words(for: settings.language)
        let custom = WordList.sanitize(settings.customWords)
        guard settings.customOnly, !custom.isEmpty else { return words }
        let keys = Set(custom.map(GuessNormalizer.normalize))
        return words.filter { keys.contains(GuessNormalizer.normalize($0)) }
    }

    /// A bot drawer passes its turn: the room is told (`notice` `bot_passed`).
    mutating func botPassed(_ bot: Member) -> [RoomEffect] {
        logEvent(.event(.passed, from: bot.id, name: bot.name))
        return [.send(.notice(.botPassed(bot.id, name: bot.name)), to: .everyone)]
    }

    /// Closes a room whose people are all gone, releasing its bots and watching screens.
    mutating func closeIfOnlyBots() -> [RoomEffect]? {
        guard !members.isEmpty, !hasPeople else { return nil }
        return close()
    }
}

extension Room {
    /// The bots seated now, for a shell that seats their brains (a restored room's too).
    public var botSeats: [(id: PlayerID, level: BotLevel)] {
        members.compactMap { m in m.bot.map { (m.id, $0) } }
    }
}
