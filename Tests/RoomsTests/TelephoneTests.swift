import Canvas
import DrawProtocol
import Testing
@testable import Rooms

/// The telephone game (issue 36): steps, chains, secrecy, the album, time running out,
/// bots refused, and a restart in the middle of a draw step.
@Suite struct TelephoneTests {
    static let players = ["ada", "bob", "cy", "dee"]

    static func harness() -> RoomHarness {
        var settings = RoomSettings()
        settings.mode = .telephone
        settings.writeTimeSec = 30
        settings.drawTimeSec = 60
        var h = RoomHarness(settings: settings)
        for name in players { h.join(name) }
        return h
    }

    static func stroke(_ x: Int32) -> [DrawOperation] {
        [.begin(tool: .pen, color: .black, width: 6, at: Point(x: x, y: 10)), .points([Point(x: x + 40, y: 80)]), .end]
    }

    /// The `phoneStep` `name` got last, forgetting its inbox.
    static func step(_ h: inout RoomHarness, _ name: String) throws -> PhoneStep {
        let steps = h.take(name).compactMap { if case .phoneStep(let step) = $0 { step } else { nil } }
        return try #require(steps.last, "\(name) got no phoneStep")
    }

    @Test func fourPlayersPlayEveryChainThroughToTheAlbumAndBackToTheLobby() throws {
        var h = Self.harness()
        h.send(.start, from: "ada")
        #expect(h.room.phase == .telephone)
        // Step 0: everyone writes.
        for name in Self.players {
            let step = try Self.step(&h, name)
            #expect(step.step == 0 && step.steps == 4 && step.kind == .write && step.remainingMs == 30_000)
            #expect(step.prompt == nil && step.drawing == nil && step.submitted == nil)
        }
        for name in Self.players { h.send(.phoneSubmit(text: "  \(name) writes  "), from: name) }
        // Step 1: each draws what the previous seat wrote (seat p works on chain p - 1).
        for (seat, name) in Self.players.enumerated() {
            let step = try Self.step(&h, name)
            #expect(step.kind == .draw && step.remainingMs == 60_000)
            #expect(step.prompt == "\(Self.players[(seat + 3) % 4]) writes", "\(name) draws the previous seat's text")
        }
        for (n, name) in Self.players.enumerated() {
            #expect(h.draw(Self.stroke(Int32(10 + 20 * n)), from: name) == .kept(points: 2))
        }
        #expect(h.frames.isEmpty, "a draw step's frames are relayed to nobody")
        for name in Self.players { h.send(.phoneSubmit(text: nil), from: name) }
        #expect(h.turns.count == 4, "each drawing is kept (gallery, /d/ID.png)")
        #expect(Set(h.turns.map(\.word)) == Set(Self.players.map { "\($0) writes" }), "with its prompt as the title")
        // Step 2: each describes the drawing the previous seat made.
        for (seat, name) in Self.players.enumerated() {
            let step = try Self.step(&h, name)
            #expect(step.kind == .describe)
            let previous = PlayerID(Self.players[(seat + 3) % 4])
            #expect(step.drawing == h.turns.first { $0.drawer == previous }?.drawing)
        }
        for name in Self.players { h.send(.phoneSubmit(text: "\(name) sees"), from: name) }
        // Step 3: the last draw; then the album.
        _ = try Self.step(&h, "ada")
        for name in Self.players { h.send(.phoneSubmit(text: nil), from: name) }
        #expect(h.room.phase == .album)
        let albums = h.take("bob").compactMap { if case .album(let chains) = $0 { chains } else { nil } }
        let chains = try #require(albums.first)
        #expect(chains.count == 4)
        for (i, chain) in chains.enumerated() {
            #expect(chain.owner == PlayerID(Self.players[i]))
            // Chain i is worked on by seats i, i+1, i+2, i+3 in turn.
            #expect(chain.entries.map(\.by) == (0..<4).map { PlayerID(Self.players[(i + $0) % 4]) })
            #expect(chain.entries.map(\.kind) == [.text, .drawing, .text, .drawing])
            #expect(chain.entries[0].text == "\(Self.players[i]) writes")
            #expect(chain.entries[2].text == "\(Self.players[(i + 2) % 4]) sees")
            #expect(chain.entries[3].drawing == nil, "a drawing left empty has no id")
        }
        // The host shows the album: entry by entry, chain by chain; then the lobby.
        h.send(.albumNext, from: "bob")
        #expect(h.take("bob").contains { if case .error(let e) = $0 { e.code == .notHost } else { false } })
        var reveals: [(Int, Int)] = []
        for _ in 0..<(4 * 5 - 1) {
            h.send(.albumNext, from: "ada")
            for message in h.take("cy") { if case .albumReveal(let chain, let entry) = message { reveals.append((chain, entry)) } }
        }
        #expect(reveals.count == 19)
        #expect(reveals.first! == (0, 0) && reveals[3] == (0, 3) && reveals[4] == (1, -1) && reveals.last! == (3, 3))
        h.send(.albumNext, from: "ada")
        #expect(h.room.phase == .lobby)
    }

    @Test func untilTheAlbumNobodyGetsAnotherChainsEntriesAndTimeEndsAStep() throws {
        var h = Self.harness()
        h.send(.start, from: "ada")
        _ = h.take("bob") // its step, and the step's start (nobody done)
        h.send(.phoneSubmit(text: "secret cat"), from: "ada")
        // Who, never what.
        let progress = h.take("bob").compactMap { if case .phoneProgress(let step, let done, _) = $0 { (step, done) } else { nil } }
        #expect(progress.count == 1 && progress[0].0 == 0 && progress[0].1 == [PlayerID("ada")])
        // Time runs out: the others' texts count as empty.
        h.advance(ms: 30_000)
        #expect(h.room.phase == .telephone)
        // Only bob (seat 1, chain 0) is handed ada's text.
        #expect(try Self.step(&h, "bob").prompt == "secret cat")
        #expect(try Self.step(&h, "cy").prompt == "")
        let leaked = Self.players.filter { $0 != "bob" }.filter { name in
            (h.inbox[PlayerID(name)] ?? []).contains { "\($0)".contains("secret cat") }
        }
        #expect(leaked.isEmpty)
        // Drawing outside a draw step, or a text out of bounds, is refused.
        h.advance(ms: 60_000)
        h.send(.phoneSubmit(text: "   "), from: "cy")
        #expect(h.take("cy").contains { if case .error(let e) = $0 { e.code == .badMessage } else { false } })
        #expect(h.draw(Self.stroke(10), from: "cy") == .rejected(ProtocolError(.notDrawer, "in a telephone game you draw only in a draw step", ref: "binary")))
    }

    @Test func aGameNeedsThreePlayersAndNoBots() {
        var settings = RoomSettings()
        settings.mode = .telephone
        var h = RoomHarness(settings: settings)
        h.join("ada", "bob")
        h.send(.start, from: "ada")
        #expect(h.take("ada").contains { if case .error(let e) = $0 { e.code == .notEnoughPlayers } else { false } })
        h.send(.addBot(level: .normal), from: "ada")
        #expect(h.take("ada").contains { if case .error(let e) = $0 { e.message.contains("bots cannot play telephone") } else { false } })
        // A classic room with a bot cannot switch to telephone until the bot leaves.
        var classic = RoomHarness()
        classic.join("ada", "bob", "cy")
        classic.send(.addBot(level: .normal), from: "ada")
        classic.send(.settings(SettingsPatch(mode: .telephone)), from: "ada")
        #expect(classic.room.settings.mode == .classic)
        #expect(classic.take("ada").contains { if case .error(let e) = $0 { e.message.contains("remove the bots first") } else { false } })
    }

    @Test func aRestartMidDrawStepKeepsTheStepTheSubmissionsAndTheDrawingsSoFar() throws {
        var h = Self.harness()
        h.send(.start, from: "ada")
        for name in Self.players { h.send(.phoneSubmit(text: "\(name) writes"), from: name) }
        h.advance(ms: 5_000)
        _ = h.draw(Self.stroke(30), from: "cy")
        h.send(.phoneSubmit(text: nil), from: "dee")
        let snapshot = h.room.snapshot(now: h.now)
        let later = h.now + 2_000
        var back = try Room(restoring: snapshot, frames: [], configuration: RoomConfiguration(), now: later)
        #expect(back.phase == .telephone)
        #expect(back.remainingMs(now: later) == 55_000, "the clock stops while the server is down")
        // Cy comes back: its step again, marked not submitted, and its drawing so far.
        let effects = back.connect(PlayerID("cy"), now: later)
        let steps = effects.compactMap { effect -> PhoneStep? in
            if case .send(.phoneStep(let step), .player(PlayerID("cy"))) = effect { step } else { nil }
        }
        #expect(steps.count == 1 && steps[0].kind == .draw && steps[0].submitted == false && steps[0].prompt == "bob writes")
        #expect(effects.contains { if case .sendDrawing(let frames, PlayerID("cy")) = $0 { !frames.isEmpty } else { false } })
        let dee = back.connect(PlayerID("dee"), now: later).compactMap { effect -> PhoneStep? in
            if case .send(.phoneStep(let step), _) = effect { step } else { nil }
        }
        #expect(dee.first?.submitted == true)
        // Its drawing goes into the chain when the step ends.
        var records: [TurnRecord] = []
        for effect in back.tick(now: later + 55_000) { if case .turnFinished(let record) = effect { records.append(record) } }
        #expect(records.map(\.drawer) == [PlayerID("cy")])
        #expect(records.first?.word == "bob writes" && records.first?.strokes.frames.count == 1)
    }
}
