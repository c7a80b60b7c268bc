import DrawProtocol
import Foundation
import Rooms
import ServerTestSupport
import Testing
@testable import DrawServer

/// Issue 39, item 10, through a real server: chat held back by the chat budget and
/// settings clamped on `create` are said (`notice`), and kicks are told as kicks.
@Suite("Feedback notices", .serialized, .timeLimit(.minutes(2)))
struct FeedbackNoticeTests {
    private func notices(_ client: TestClient, _ code: String) -> [[String: JSONValue]] {
        client.history.compactMap { event in
            guard case .json(.object(let o)) = event, o["t"] == .string("notice"), o["code"] == .string(code) else { return nil }
            return o
        }
    }

    @Test func chatHeldBackByTheBudgetIsToldOnceAsItBegins() async throws {
        try await withServer { port in
            let ada = TestClient.connect(port: port)
            let bob = TestClient.connect(port: port)
            try await ada.hello("Ada")
            try await bob.hello("Bob")
            try await seat(ada, [bob])
            // Five lines go at once (5 per 3 s); the sixth waits, and Bob is told why.
            for i in 0..<7 { bob.send(#"{"t":"chat","text":"line \#(i)"}"#) }
            let notice = try await bob.next("notice")
            #expect(notice["code"]?.stringValue == "slow_down")
            #expect((notice["retryMs"]?.intValue ?? 0) > 0)
            try await bob.next("chat") { $0["text"]?.stringValue == "line 6" }
            let chats = bob.history.filter { if case .json(.object(let o)) = $0 { o["t"] == .string("chat") } else { false } }
            #expect(chats.count == 7)
            // Held lines are shaped over about a second: told once, not per line.
            #expect(notices(bob, "slow_down").count == 1)
            #expect(notices(ada, "slow_down").isEmpty)
        }
    }

    @Test func aCreateWithValuesOutOfRangeIsToldWhatWasUsed() async throws {
        try await withServer { port in
            let ada = TestClient.connect(port: port)
            try await ada.hello("Ada")
            ada.send(#"{"t":"create","name":"Big","public":false,"settings":{"rounds":99,"drawTimeSec":80}}"#)
            let room = try await ada.next("room")
            #expect(room["settings"]?.objectValue?["rounds"]?.intValue == 10)
            let notice = try await ada.next("notice")
            #expect(notice["code"]?.stringValue == "settings_adjusted")
            #expect(notice["fields"]?.objectValue == ["rounds": .number(10)])
        }
    }

    @Test func aHostsKickIsToldAsAKick() async throws {
        try await withServer { port in
            let ada = TestClient.connect(port: port)
            let bob = TestClient.connect(port: port)
            try await ada.hello("Ada")
            try await bob.hello("Bob")
            try await seat(ada, [bob])
            ada.send(#"{"t":"kick","playerId":"\#(bob.playerID)"}"#)
            let left = try await ada.next("left")
            #expect(left["reason"]?.stringValue == "kicked")
        }
    }
}

/// `serve --next-game-time` sets the lobby's countdown after a game (issue 39, item 9).
@Suite("Next game countdown flag (real child process)", .serialized, .timeLimit(.minutes(2)))
struct NextGameFlagTests {
    @Test func theCountdownAfterAGameFollowsTheFlag() async throws {
        let flags = [
            "--db", temporaryDatabasePath(), "--web-root", "web-static", "--next-game-time", "7s",
            "--choose-time", "1s", "--draw-time", "1s", "--turn-end-time", "0s", "--game-end-time", "0s",
        ]
        let server = try await ServerProcess(flags)
        let ada = TestClient.connect(port: server.port)
        try await ada.hello("Ada")
        try await seat(ada, [])
        ada.send(#"{"t":"addBot","level":"easy"}"#)
        try await ada.next("joined")
        ada.send(#"{"t":"ready","ready":true}"#)
        try await ada.next("gameEnd", within: 30)
        let lobby = try await ada.next("room") { $0["phase"]?.stringValue == "lobby" }
        let left = try #require(lobby["nextGameMs"]?.intValue)
        #expect((1...7_000).contains(left), "\(left)")
        // Gone first, so the server's drain has nobody to wait for.
        ada.close()
        server.signal(SIGTERM)
        #expect(await server.waitForExit(seconds: 15) == 0)
    }
}
