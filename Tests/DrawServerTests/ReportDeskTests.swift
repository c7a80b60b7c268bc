import Canvas
import DrawProtocol
@testable import Rooms
import Testing
@testable import DrawServer

@Suite("The report desk: budgets per player and a bounded list")
struct ReportDeskTests {
    func report(_ reporter: String, drawing: DrawingID? = nil) -> ReportDesk.Report {
        ReportDesk.Report(
            id: "", filedAtMs: 0, reason: .spam, reporter: PlayerID(reporter), reporterName: reporter,
            reported: PlayerID("eve"), reportedName: "Eve", room: nil, drawing: drawing, chatText: "x", chat: [], strokes: nil
        )
    }

    @Test func fivePerTenMinutesPerPlayerOnVirtualTime() throws {
        var desk = ReportDesk(random: .seeded(1))
        var now = Timestamp(milliseconds: 0)
        for _ in 0..<5 { _ = try desk.file(report("bob"), now: now).get() }
        let refused = desk.file(report("bob"), now: now)
        guard case .failure(let error) = refused else { Issue.record("a sixth report was filed"); return }
        #expect(error.code == .reportLimited)
        #expect(desk.open.count == 5)
        // Another player has a budget of its own.
        #expect((try? desk.file(report("cy"), now: now).get()) != nil)
        // Two minutes refill one report (5 per 10 minutes), not more.
        now = now + 120_000
        #expect((try? desk.file(report("bob"), now: now).get()) != nil)
        #expect((try? desk.file(report("bob"), now: now).get()) == nil)
    }

    @Test func idsAreDistinctAndTheListIsBounded() throws {
        var configuration = ReportDesk.Configuration()
        configuration.maxOpen = 3
        configuration.rate = Rate(100, perMs: 1_000)
        var desk = ReportDesk(configuration: configuration, random: .seeded(2))
        var random = RandomSource.seeded(3)
        let drawing = DrawingID.random(using: &random)
        let ids = try (0..<4).map { n in try desk.file(report("p\(n)", drawing: n < 2 ? drawing : nil), now: .zero).get().id }
        #expect(Set(ids).count == 4)
        #expect(desk.open.map(\.id) == Array(ids.suffix(3)), "the oldest is dropped past the bound")
        #expect(desk.closeAll(about: drawing) == 1)
        #expect(desk.close(ids[3])?.id == ids[3])
        #expect(desk.close(ids[3]) == nil)
        #expect(desk.open.map(\.id) == [ids[2]])
    }
}
