import Canvas
import DrawProtocol
import Foundation
import ServerTestSupport
import Testing
@testable import DrawServer

/// No system call is made while a room's or the directory's lock is held: sockets are
/// written, event loops woken and the store's writer resumed only once the lock is released
/// (`WakeUps`). `LockAudit` records any call the shell makes under a watched lock.
@Suite("No system call under a lock")
struct LockAuditTests {
    @Test func aSystemCallUnderAWatchedLockIsRecorded() {
        let audit = LockAudit()
        LockAudit.systemCall("writes to a socket")
        LockAudit.holding(audit, "a test lock") { LockAudit.systemCall("wakes an event loop") }
        LockAudit.systemCall("resumes a task")
        #expect(audit.holds == 1)
        #expect(audit.violations == [LockAudit.Violation(lock: "a test lock", call: "wakes an event loop")])
    }

    /// A room of six on four event loops, with its store on disk and batches of one change
    /// (so every change wakes the writer): a turn's strokes, guesses and chat go everywhere
    /// with no system call under a lock.
    @Test func aRelayedTurnMakesNoSystemCallUnderALock() async throws {
        let audit = LockAudit()
        let path = temporaryDatabasePath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try await withServerRuntime({
            $0.eventLoopThreads = 4
            $0.databasePath = path
            $0.persistence.maxBatch = 1
        }, lockAudit: audit) { _, port in
            let players = (0..<6).map { _ in TestClient.connect(port: port) }
            for (index, player) in players.enumerated() { try await player.hello("P\(index)") }
            let drawer = players[0], guessers = Array(players.dropFirst())
            let turn = try await startTurn(drawer, guessers)
            let word = turn["word"]?.stringValue ?? ""
            let strokes = (0..<20).map { strokeBytes(from: Point(x: 10 + 10 * $0, y: 10), to: Point(x: 10 + 10 * $0, y: 90)) }
            for stroke in strokes { drawer.send(binary: stroke) }
            for guesser in guessers {
                #expect(try await guesser.nextBinary(bytes: strokes.joined().count) == Array(strokes.joined()))
            }
            guessers[0].send(#"{"t":"chat","text":"nice"}"#)
            guessers[1].send(#"{"t":"guess","text":"\#(word)"}"#)
            for player in players { try await player.next("chat") }
        }
        #expect(audit.holds > 50, "the rooms' and the directory's locks were watched")
        #expect(audit.violations == [])
    }
}
