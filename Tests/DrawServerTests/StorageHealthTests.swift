import GRDB
import Testing
@testable import DrawServer

/// The storage fault state machine on virtual time: events in, actions out.
@Suite("Storage health (pure)")
struct StorageHealthTests {
    static let full = StorageFault(.diskFull, detail: "SQLite error 13: database or disk is full")
    static let busy = StorageFault(.busy, detail: "SQLite error 5: database is locked")
    static let corrupt = StorageFault(.corrupt, detail: "SQLite error 11: database disk image is malformed")
    static let configuration = StorageHealth.Configuration(firstRetry: .milliseconds(100), maxRetry: .milliseconds(800), heldBytesLimit: 1_000)

    @Test func aTransientFaultIsLoggedOnceHeldAndRetriedWithBackoffUntilACommitClearsIt() {
        var health = StorageHealth(configuration: Self.configuration)
        #expect(health.handle(.committed(now: .seconds(1))) == [], "a commit while healthy says nothing")
        #expect(health.handle(.failed(Self.full, now: .seconds(10))) == [.faultStarted(Self.full), .hold(retryAt: .seconds(10) + .milliseconds(100))])
        #expect(health.isFailing)
        #expect(!health.mayRetry(at: .seconds(10) + .milliseconds(99)))
        #expect(health.mayRetry(at: .seconds(10) + .milliseconds(100)))
        // Doubling up to the cap; no second log line.
        var now = Duration.seconds(11)
        var waits: [Duration] = []
        for _ in 0..<5 {
            let actions = health.handle(.failed(Self.full, now: now))
            guard case .hold(let retryAt)? = actions.last, actions.count == 1 else {
                Issue.record("expected one hold, got \(actions)")
                return
            }
            waits.append(retryAt - now)
            now = retryAt
        }
        #expect(waits == [.milliseconds(200), .milliseconds(400), .milliseconds(800), .milliseconds(800), .milliseconds(800)])
        #expect(health.failures == 6)
        let cleared = health.handle(.committed(now: now + .seconds(1)))
        #expect(cleared == [.faultCleared(Self.full, lasted: now + .seconds(1) - .seconds(10), failures: 6)])
        #expect(!health.isFailing && health.retryAt == nil)
        // A later fault starts again from the first delay, with its own log line.
        #expect(health.handle(.failed(Self.busy, now: .seconds(100))) == [.faultStarted(Self.busy), .hold(retryAt: .seconds(100) + .milliseconds(100))])
    }

    @Test func aFaultThatCannotPassDropsTheBatchAndIsStillReportedUntilACommitGoesThrough() {
        var health = StorageHealth(configuration: Self.configuration)
        #expect(health.handle(.failed(Self.corrupt, now: .seconds(1))) == [.faultStarted(Self.corrupt), .drop])
        #expect(health.isFailing && health.retryAt == nil, "nothing is held, so nothing waits for a retry")
        #expect(health.handle(.failed(Self.corrupt, now: .seconds(2))) == [.drop])
        #expect(health.handle(.committed(now: .seconds(3))) == [.faultCleared(Self.corrupt, lasted: .seconds(2), failures: 2)])
    }

    @Test func theCauseReportedIsTheLatest() {
        var health = StorageHealth(configuration: Self.configuration)
        _ = health.handle(.failed(Self.busy, now: .zero))
        _ = health.handle(.failed(Self.full, now: .seconds(1)))
        #expect(health.fault == Self.full)
    }

    @Test func theBoundCollapsesRefusesNewRoomsOnceAndAdmitsThemAgainAfterRecovery() {
        var health = StorageHealth(configuration: Self.configuration)
        _ = health.handle(.failed(Self.full, now: .zero))
        #expect(health.handle(.holding(bytes: 999)) == [])
        #expect(health.handle(.holding(bytes: 1_000)) == [.collapse(firstTime: true), .refuseNewRooms(true)])
        #expect(health.refusingNewRooms)
        // The collapse got below the bound: the next time the bound is reached, collapse again.
        #expect(health.handle(.collapsed(bytes: 400)) == [])
        #expect(health.handle(.holding(bytes: 1_000)) == [.collapse(firstTime: false)])
        // It could not (live state it must keep): not again until a quarter of the bound more.
        #expect(health.handle(.collapsed(bytes: 1_100)) == [])
        #expect(health.handle(.holding(bytes: 1_300)) == [])
        #expect(health.handle(.holding(bytes: 1_350)) == [.collapse(firstTime: false)])
        let cleared = health.handle(.committed(now: .seconds(5)))
        #expect(cleared == [.faultCleared(Self.full, lasted: .seconds(5), failures: 1), .refuseNewRooms(false)])
        #expect(!health.refusingNewRooms)
    }

    @Test func sqliteResultCodesAreClassified() {
        func kind(_ code: CInt) -> StorageFault.Kind { StorageFault(sqlite: DatabaseError(resultCode: ResultCode(rawValue: code), message: "m")).kind }
        #expect(kind(13) == .diskFull)
        #expect(kind(10) == .ioError && kind(778) == .ioError, "SQLITE_IOERR and SQLITE_IOERR_WRITE")
        #expect(kind(5) == .busy && kind(6) == .busy && kind(517) == .busy, "BUSY, LOCKED, BUSY_SNAPSHOT")
        #expect(kind(8) == .readOnly && kind(14) == .ioError)
        #expect(kind(11) == .corrupt && kind(26) == .corrupt)
        #expect(kind(19) == .other, "a constraint cannot pass by waiting")
        #expect(StorageFault(sqlite: CancellationError()).kind == .other)
        #expect(StorageFault(sqlite: DatabaseError(resultCode: ResultCode(rawValue: 13), message: "database or disk is full")).detail
            == "SQLite error 13: database or disk is full")
        #expect(StorageFault.Kind.diskFull.isTransient && StorageFault.Kind.ioError.isTransient)
        #expect(StorageFault.Kind.busy.isTransient && StorageFault.Kind.readOnly.isTransient)
        #expect(!StorageFault.Kind.corrupt.isTransient && !StorageFault.Kind.other.isTransient)
        #expect(StorageFault(.other, detail: "a\nb").detail == "a b", "one line")
    }
}
