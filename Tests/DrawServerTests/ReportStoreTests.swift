import Canvas
import DrawProtocol
import Foundation
@testable import Rooms
import ServerTestSupport
import Testing
@testable import DrawServer

/// Reports as every store keeps them: run on SQLite and, when a test server is set, on
/// PostgreSQL.
enum ReportContract {
    static func report(_ id: String, at ms: Int64, drawing: DrawingID? = nil, chat: Bool = false) -> ReportDesk.Report {
        ReportDesk.Report(
            id: id, filedAtMs: ms, reason: chat ? .spam : .revealsWord, reporter: PlayerID("bob"), reporterName: "Bob",
            reported: PlayerID("ada"), reportedName: "Ada", room: RoomCode(parsing: "ABCDEF"), drawing: drawing,
            chatText: chat ? "the word is cat" : nil,
            chat: [ChatLine(sequence: 3, from: PlayerID("ada"), name: "Ada", text: "the word is cat", visibleTo: nil)],
            strokes: chat ? nil : StrokeLog(size: .standard, word: "cat", frames: [.init(at: 7, bytes: GalleryContract.frame)])
        )
    }

    static func check(_ archive: any ReportArchive) async throws {
        var random = RandomSource.seeded(9)
        let drawing = DrawingID.random(using: &random)
        let first = report("r1", at: 1_000, drawing: drawing)
        try await archive.storeReport(first)
        try await archive.storeReport(report("r2", at: 2_000, chat: true))
        try await archive.storeReport(report("r3", at: 3_000, drawing: drawing))
        #expect(try await archive.openReports(limit: 10).map(\.id) == ["r3", "r2", "r1"], "newest first")
        #expect(try await archive.openReports(limit: 2).map(\.id) == ["r3", "r2"])
        let back = try #require(try await archive.openReport("r1"))
        #expect(back.strokes == first.strokes && back.chat == first.chat && back.drawing == drawing)
        #expect(back.reason == .revealsWord && back.reporterName == "Bob" && back.reported == PlayerID("ada") && back.room == first.room)
        let chat = try #require(try await archive.openReport("r2"))
        #expect(chat.chatText == "the word is cat" && chat.strokes == nil)

        #expect(try await archive.closeReport("r2", action: "dismiss"))
        #expect(try await archive.closeReport("r2", action: "dismiss") == false, "closed once")
        #expect(try await archive.openReport("r2") == nil)
        try await archive.closeReports(about: drawing)
        #expect(try await archive.openReports(limit: 10).isEmpty)
        #expect(try await archive.openReport("nope") == nil)
    }
}

@Suite("Reports on SQLite", .timeLimit(.minutes(1)))
struct ReportStoreTests {
    @Test func reportsAreKeptListedAndClosed() async throws {
        let path = temporaryDatabasePath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try await ReportContract.check(try GameDatabase(path: path))
    }

    @Test func anOpenReportSurvivesARestart() async throws {
        let path = temporaryDatabasePath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try await GameDatabase(path: path).storeReport(ReportContract.report("kept", at: 5))
        let reopened = try GameDatabase(path: path)
        #expect(try await reopened.openReports(limit: 5).map(\.id) == ["kept"])
    }
}

@Suite("Reports on PostgreSQL", .serialized, .enabled(if: TestPostgres.isAvailable, TestPostgres.skipped), .timeLimit(.minutes(2)))
struct PostgresReportTests {
    @Test func reportsAreKeptListedAndClosedAndEveryNodeSeesThem() async throws {
        let url = try await TestPostgres.freshDatabase()
        let one = try await PostgresGameStore.open(url: url, nodeID: "one", logger: TestPostgres.logger)
        try await ReportContract.check(one)
        let two = try await PostgresGameStore.open(url: url, nodeID: "two", logger: TestPostgres.logger)
        try await one.storeReport(ReportContract.report("shared", at: 9))
        #expect(try await two.openReports(limit: 5).map(\.id) == ["shared"], "a report filed on one node is seen on another")
        #expect(try await two.closeReport("shared", action: "ban"))
        #expect(try await one.openReports(limit: 5).isEmpty)
        await one.close()
        await two.close()
    }
}
