import Bots
import Canvas
import DrawProtocol
import Rooms
import Testing

@Suite struct BotBrainTests {
    @Test func theSamplesGiveEveryLanguageWordsFromItsListWithDrawingsThatApplyCleanly() throws {
        let library = BotLibrary.samples
        for language in WordLanguage.all.map(\.code) {
            let words = library.vocabulary.words(for: language)
            #expect(words.count >= 15, "\(language) has \(words.count) drawable words")
            let listed = Set(WordList.words(for: language))
            for word in words {
                #expect(listed.contains(word), "\(language): \(word) is not in the list")
                for log in library.drawings(of: word, language: language) {
                    let drawing = try log.drawing()
                    #expect(!drawing.isEmpty)
                }
            }
        }
    }

    @Test func aStoredDrawingOfAListedWordGoesFirstInEveryLanguageThatListsIt() {
        var library = BotLibrary.samples
        var log = StrokeLog(size: .standard)
        var cursor = StrokeCursor()
        log.frames = [.init(at: 0, bytes: FrameCodec.encode([.begin(tool: .pen, color: .black, width: 3, at: Point(x: 1, y: 1)), .points([Point(x: 9, y: 9)]), .end], cursor: &cursor))]
        let added = library.addStored(log, word: "Sun")
        let unknown = library.addStored(log, word: "no such word here")
        #expect(added && !unknown)
        #expect(library.drawings(of: "sun", language: "en").first == log)
    }

    @Test func asDrawerItPicksAWordItCanDrawAndReplaysItWithinTheDrawTime() {
        var brain = BotBrain(level: .normal, seed: 7, library: .samples, playerID: PlayerID("me"))
        let t0 = Timestamp(milliseconds: 0)
        var actions = brain.receive(text: #"{"t":"choose","words":["zebra crossing","sun","qwerty"],"remainingMs":15000}"#, now: t0)
        guard case .wake(let at)? = actions.last else {
            Issue.record("no wake asked for: \(actions)")
            return
        }
        actions = brain.wake(now: at)
        #expect(actions.first == .send(.choose(index: 1)))
        actions = brain.receive(text: #"{"t":"turn","drawer":"me","round":1,"mask":"_ _ _","remainingMs":40000,"word":"sun"}"#, now: at)
        var frames: [[UInt8]] = []
        var now = at
        while case .wake(let next)? = actions.last {
            now = next
            actions = brain.wake(now: now)
            for case .sendBinary(let bytes) in actions { frames.append(bytes) }
        }
        #expect(frames.count == BotLibrary.samples.drawings(of: "sun", language: "en")[0].frames.count)
        #expect(now - at < 40_000)
        // The frames rebuild the sample drawing on a fresh canvas.
        var drawing = Drawing(size: .standard)
        for frame in frames { #expect(throws: Never.self) { _ = try drawing.apply(frame: frame) } }
    }

    @Test func withoutADrawingOfItsWordItSkips() {
        var brain = BotBrain(level: .hard, seed: 1, library: BotLibrary(), playerID: PlayerID("me"))
        var actions = brain.receive(text: #"{"t":"turn","drawer":"me","round":1,"mask":"_ _ _","remainingMs":40000,"word":"sun"}"#, now: .zero)
        guard case .wake(let at)? = actions.last else { return #expect(Bool(false)) }
        actions = brain.wake(now: at)
        #expect(actions.first == .send(.skip))
    }

    @Test func asGuesserItOnlyGuessesWordsThatFitTheMaskAndNotWhatOthersTriedOrItself() {
        var brain = BotBrain(level: .hard, seed: 3, library: BotLibrary(), playerID: PlayerID("me"))
        var actions = brain.receive(text: #"{"t":"room","code":"ABCDEF","settings":{"language":"en"},"phase":"drawing","players":[],"canvas":{"w":800,"h":600}}"#, now: .zero)
        actions = brain.receive(text: #"{"t":"turn","drawer":"x","round":1,"mask":"_ _ t","remainingMs":60000}"#, now: .zero)
        _ = brain.receive(text: #"{"t":"chat","from":"y","name":"Y","text":"cat"}"#, now: .zero)
        var guesses: [String] = []
        var now = Timestamp.zero
        for _ in 0..<40 {
            guard case .wake(let next)? = actions.last else { break }
            now = next
            actions = brain.wake(now: now)
            for case .send(.guess(let text)) in actions { guesses.append(text) }
        }
        #expect(!guesses.isEmpty)
        #expect(!guesses.contains("cat"))
        #expect(Set(guesses).count == guesses.count)
    }

    @Test func aHardBotRecognisesADrawingItKnowsAndNamesIt() {
        var brain = BotBrain(level: .hard, seed: 2, library: .samples, playerID: PlayerID("me"))
        _ = brain.receive(text: #"{"t":"room","code":"ABCDEF","settings":{"language":"en"},"phase":"drawing","players":[],"canvas":{"w":800,"h":600}}"#, now: .zero)
        var actions = brain.receive(text: #"{"t":"turn","drawer":"x","round":1,"mask":"_ _ _ _ _","remainingMs":60000}"#, now: .zero)
        for frame in BotLibrary.samples.drawings(of: "heart", language: "en")[0].frames { _ = brain.receive(binary: frame.bytes, now: .zero) }
        var guesses: [String] = []
        for _ in 0..<10 {
            guard case .wake(let next)? = actions.last else { break }
            actions = brain.wake(now: next)
            for case .send(.guess(let text)) in actions { guesses.append(text) }
        }
        #expect(guesses.contains("heart"), "\(guesses)")
    }

    @Test func theSameSeedPlaysTheSameGameAndAnotherSeedAnotherOne() {
        func play(_ seed: UInt64) -> [String] {
            var settings = RoomSettings()
            settings.rounds = 1
            var configuration = RoomConfiguration()
            configuration.drawMs = 20_000
            var table = BotTable(seed: seed, settings: settings, configuration: configuration)
            table.seat([.easy, .normal, .hard, .hard])
            table.run(limitMs: 10 * 60_000) { $0.room.phase == .gameEnd }
            return table.transcript
        }
        let first = play(11)
        #expect(first == play(11))
        #expect(first != play(12))
    }

    @Test func fourBotsPlayAWholeGameDrawingAndGuessing() {
        var settings = RoomSettings()
        settings.rounds = 2
        var table = BotTable(seed: 5, settings: settings)
        table.seat([.easy, .normal, .hard, .hard])
        #expect(table.room.phase == .choosing)
        table.run(limitMs: 30 * 60_000) { $0.room.phase == .gameEnd }
        #expect(table.room.phase == .gameEnd)
        let finished = table.transcript.filter { $0.contains("turnFinished") }
        #expect(finished.count == 8)
        // Every turn had a drawing, nobody skipped, and some bots guessed right.
        #expect(!finished.contains { $0.contains(" skipped ") || $0.contains(" 0 frames") })
        #expect(table.transcript.contains { $0.contains(#""t":"guessed""#) })
        #expect(!table.transcript.contains { $0.contains("frame refused") })
        #expect(table.room.members.filter(\.isBot).contains { $0.score > 0 })
    }
}
