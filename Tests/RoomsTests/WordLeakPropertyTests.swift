import Canvas
import DrawProtocol
import Testing
@testable import Rooms

/// Across many seeded random games, no message addressed to a player who does not know
/// the word (not the drawer, not yet guessed) ever contains it before `turnEnd`, the chat
/// history included; and the history a resuming player gets is exactly the last lines it
/// was allowed to see.
@Suite("Word secrecy property")
struct WordLeakPropertyTests {
    static let names = ["ada", "bob", "cy", "dee", "eve"]
    static let noise = ["zq", "hmm", "xylo", "qwv", "plop", "zzz top", "??"]

    @Test(arguments: 0..<60)
    func wordNeverLeaksToGuessers(seed: UInt64) {
        var rng = SeededRandom(seed: seed &* 7919 &+ 1)
        var settings = RoomSettings()
        settings.rounds = 2
        settings.hints = Int.random(in: 0...5, using: &rng)
        var h = RoomHarness(settings: settings, seed: seed)
        h.join("ada", "bob", "cy")
        // Bots are members like the others: the word must not reach them either.
        if seed % 2 == 0 { h.send(.addBot(level: .normal), from: "ada") }
        h.startGame(host: "ada")
        var seen: [PlayerID: Int] = [:]

        for _ in 0..<250 {
            let before = Self.secret(h.room)
            let actor = Self.names[Int.random(in: 0..<Self.names.count, using: &rng)]
            switch Int.random(in: 0..<17, using: &rng) {
            case 0...3:
                let exact = Int.random(in: 0..<4, using: &rng) == 0
                h.send(.chat(exact ? (before?.word ?? "none") : Self.noise[Int.random(in: 0..<Self.noise.count, using: &rng)]), from: actor)
            case 4: h.send(.guess(before?.word ?? "x"), from: actor)
            case 5: h.chooseFirst()
            case 6: h.advance(ms: Int.random(in: 1...30_000, using: &rng))
            case 7: h.send(.skip, from: actor)
            case 8: h.join(actor)
            case 9: h.disconnect(actor)
            case 10: h.reconnect(actor)
            case 11: h.send(.spectate(Bool.random(using: &rng)), from: actor)
            case 12: h.leave(actor)
            case 14: h.send(.addBot(level: .hard), from: actor)
            case 15:
                if let bot = h.bots.randomElement(using: &rng) { h.send(.removeBot(playerID: bot), from: actor) }
            case 16:
                // A bot acts as its brain would: guesses, chats, chooses, skips.
                if let bot = h.bots.randomElement(using: &rng) {
                    let actions: [ClientMessage] = [.guess(before?.word ?? "x"), .chat("gg"), .choose(index: 0), .skip]
                    h.send(actions[Int.random(in: 0..<actions.count, using: &rng)], fromID: bot)
                }
            default: h.send(.ready(true), from: actor)
            }
            check(h, seen: &seen, before: before, after: Self.secret(h.room))
            if h.room.isClosed { break }
        }
        #expect(h.historyMismatches.isEmpty, "\(h.historyMismatches)")
    }

    /// The string values of a message as `id` reads them: its own chat lines (in history
    /// too) are what it typed itself, not a leak.
    static func values(of message: ServerMessage, for id: PlayerID) -> [String] {
        switch message {
        case .chat(let from, _, _) where from == id:
            return []
        case .chatHistory(let lines):
            return lines.filter { $0.from != id }.flatMap { [$0.name, $0.text] }
        case .error(let error):
            // `ref` echoes the type of the refused message ("skip" is also a listed word).
            return [error.message]
        default:
            var values: [String] = []
            func walk(_ value: JSONValue) {
                switch value {
                case .string(let text): values.append(text)
                case .array(let items): items.forEach(walk)
                case .object(let object): object.values.forEach(walk)
                default: break
                }
            }
            var message = message
            if case .room(var view) = message {
                // Only a guesser's own copy carries `solvedWord` (RoomSolvedWordTests); the
                // turn it belongs to may have ended within the batch checked.
                view.solvedWord = nil
                message = .room(view)
            }
            if let value = JSONValue.parse(message.jsonBytes()) { walk(value) }
            return values
        }
    }

    /// The word of the turn being drawn and who knows it.
    static func secret(_ room: Room) -> (word: String, knowers: Set<PlayerID>)? {
        guard case .drawing(let turn) = room.state else { return nil }
        return (turn.word, Set(room.members.filter { $0.guessed }.map(\.id) + [turn.drawer]))
    }

    /// Messages up to a `turnEnd` belong to the turn drawn before the action; messages
    /// after the last `turnEnd` to the turn drawn after it.
    private func check(_ h: RoomHarness, seen: inout [PlayerID: Int], before: (word: String, knowers: Set<PlayerID>)?, after: (word: String, knowers: Set<PlayerID>)?) {
        for (id, messages) in h.inbox {
            let start = seen[id, default: 0]
            seen[id] = messages.count
            guard start < messages.count else { continue }
            let batch = Array(messages[start...])
            let lastEnd = batch.lastIndex { if case .turnEnd = $0 { true } else { false } }
            for (i, message) in batch.enumerated() {
                if case .turnEnd = message { continue }
                let secret = (lastEnd.map { i > $0 } ?? true) ? (after ?? before) : before
                guard let secret, !secret.knowers.contains(id), !(after?.knowers.contains(id) ?? false) || secret.word != after?.word else { continue }
                if h.room.member(id)?.guessed == true && secret.word == after?.word { continue }
                if case .close = message { continue }
                // A player's own `guessed` names the word it just guessed (issue 39).
                if case .guessed(let who, _, _) = message, who == id { continue }
                // Values, not keys: words such as "mask" or "mouth" are also field names.
                let leaked = Self.values(of: message, for: id).contains { $0.lowercased() == secret.word.lowercased() }
                #expect(!leaked, "leaked \(secret.word) to \(id): \(message.jsonString)")
                let hasWordField = if case .object(let object)? = JSONValue.parse(message.jsonBytes()) { object["word"] != nil } else { false }
                #expect(!hasWordField, "a word field reached \(id): \(message.jsonString)")
            }
        }
    }
}
