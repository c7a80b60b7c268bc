import CEpoll
import Glibc
import NIOCore
import NIOPosix
import Synchronization

/// A game connection's socket as its loop's `ReadPoller` reads it.
protocol PolledReader: AnyObject {
    /// Reads what the socket holds (through `scratch`, the poller's read buffer) and hands it
    /// to the connection.
    func pollRead(into scratch: UnsafeMutableRawBufferPointer) -> PolledRead
    /// The poller lets go of the socket: NIO reads it again.
    func returnToNIO()
}

enum PolledRead {
    case read
    /// Nothing was waiting.
    case empty
    /// The end of input, an error, or input held back: NIO reads it from now on.
    case handBack
}

/// Reads a loop's busy game connections from an epoll set of its own, `batch` ready sockets
/// at a time, so a saturated loop serves the socket whose data waited longest first.
///
/// Why: NIO takes every ready socket in one `epoll_wait` and handles the whole batch before
/// it asks again. Saturated, that batch is every drawer (a turn of tens of milliseconds), and
/// a socket that missed one batch is at the end of the next: a frame can wait most of two
/// turns. Asked for a few sockets at a time, the kernel's ready list hands them out oldest
/// first (docs/benchmarks/journal-overload-2026-11-25-26.md, "Reading in small batches").
///
/// Only a busy loop's connections are here: a connection moves over once its loop's turn
/// has read more than `pollAfterReads` sockets through NIO, and goes back after
/// `idleHandBack` without input (and when its input is held back or it closes). All go back
/// once no `epoll_wait` has found `busyReady` sockets ready for `idleHandBack`: the loop is
/// not busy any more, and NIO's wake-ups cost less than polling.
///
/// The poller runs as a timer on the loop, at most once per turn of the loop (after NIO's
/// own `epoll_wait`, so NIO's sockets and tasks are never starved), up to `budget` each
/// time. Everything here runs on `eventLoop` (hence `@unchecked Sendable`).
final class ReadPoller: @unchecked Sendable {
    struct Configuration: Sendable {
        /// Sockets asked for per `epoll_wait`.
        var batch = 64
        /// NIO reads in one turn of the loop past which the connections it reads move here
        /// (a loop that never had more than this ready at once never polls).
        var pollAfterReads = 64
        /// Sockets one `epoll_wait` must find ready for the loop to count as still busy.
        var busyReady = 32
        /// The longest one run reads before the loop turns again.
        var budget = Duration.milliseconds(4)
        /// A connection without input for this long goes back to NIO.
        var idleHandBack = Duration.milliseconds(100)
        /// How soon the next run is looked for while connections are polled.
        var interval = TimeAmount.microseconds(50)
    }

    let eventLoop: any EventLoop
    let configuration: Configuration
    /// Counts the reads made here (`drawserver_polled_reads_total`).
    private let counted: @Sendable (Int) -> Void
    private let epoll: CInt
    private var entries: [UInt64: Entry] = [:]
    private var nextID: UInt64 = 1
    private let events: UnsafeMutableBufferPointer<epoll_event>
    /// One read buffer for every socket: what a read got is copied out at its size, so a
    /// frame held for a slow recipient keeps its own bytes, not a whole buffer.
    private let scratch: UnsafeMutableRawBufferPointer
    private var scheduled = false
    /// Set at the end of each turn of the loop: a run waits for one, so NIO polls its own
    /// sockets between two runs.
    private var turned = true
    private var nioReadsThisTurn = 0
    private var lastIdleSweep = ContinuousClock.now
    /// When an `epoll_wait` last found half a batch or more ready.
    private var lastBusy = ContinuousClock.now

    private struct Entry {
        var socket: CInt
        var reader: any PolledReader
        var lastRead: ContinuousClock.Instant
    }

    init?(eventLoop: any EventLoop, configuration: Configuration, counted: @escaping @Sendable (Int) -> Void = { _ in }) {
        let epoll = epoll_create1(CInt(EPOLL_CLOEXEC))
        guard epoll >= 0 else { return nil }
        self.eventLoop = eventLoop
        self.configuration = configuration
        self.counted = counted
        self.epoll = epoll
        events = .allocate(capacity: configuration.batch)
        scratch = .allocate(byteCount: Self.readBytes, alignment: 16)
    }

    deinit {
        close(epoll)
        events.deallocate()
        scratch.deallocate()
    }

    /// The most one read takes: what arrived since the socket's last read, normally a few
    /// frames (a fuller socket stays ready and is read again at its next turn).
    static let readBytes = 64 * 1024

    /// Connections polled now.
    var count: Int { entries.count }

    /// NIO read a game connection: true once this turn has read more than a batch, and the
    /// connection should move here.
    func nioRead() -> Bool {
        nioReadsThisTurn += 1
        return nioReadsThisTurn > configuration.pollAfterReads
    }

    /// Starts polling `socket`; nil when it cannot be watched (NIO goes on reading it).
    func register(socket: CInt, reader: any PolledReader) -> UInt64? {
        var event = epoll_event()
        event.events = EPOLLIN.rawValue | EPOLLRDHUP.rawValue
        let id = nextID
        event.data.u64 = id
        guard epoll_ctl(epoll, EPOLL_CTL_ADD, socket, &event) == 0 else { return nil }
        nextID += 1
        if entries.isEmpty { lastBusy = .now }
        entries[id] = Entry(socket: socket, reader: reader, lastRead: .now)
        schedule()
        return id
    }

    /// Stops polling; `open`: the socket is still open, so it leaves the epoll set (a
    /// closed one left it when it closed). Ids are never reused, so an event still queued
    /// for it is ignored.
    func forget(_ id: UInt64, open: Bool) {
        guard let entry = entries.removeValue(forKey: id), open else { return }
        var unused = epoll_event()
        _ = epoll_ctl(epoll, EPOLL_CTL_DEL, entry.socket, &unused)
    }

    /// The loop finished a turn (NIO's tick callback).
    func turnEnded() {
        turned = true
        nioReadsThisTurn = 0
    }

    private func schedule() {
        guard !scheduled, !entries.isEmpty else { return }
        scheduled = true
        eventLoop.scheduleTask(in: configuration.interval) { self.run() }
    }

    private func run() {
        scheduled = false
        defer { schedule() }
        guard turned else { return }
        turned = false
        let start = ContinuousClock.now
        repeat {
            let ready = epoll_wait(epoll, events.baseAddress, CInt(events.count), 0)
            guard ready > 0 else { break }
            let now = ContinuousClock.now
            if Int(ready) >= configuration.busyReady { lastBusy = now }
            for index in 0..<Int(ready) {
                let id = events[index].data.u64
                guard let entry = entries[id] else { continue }
                switch entry.reader.pollRead(into: scratch) {
                case .read:
                    entries[id]?.lastRead = now
                    counted(1)
                case .empty: break
                case .handBack: forget(id, open: true)
                }
            }
        } while start.duration(to: .now) < configuration.budget
        sweepIdle(now: .now)
    }

    /// Connections quiet for `idleHandBack` go back to NIO, which wakes the loop for them.
    private func sweepIdle(now: ContinuousClock.Instant) {
        guard lastIdleSweep.duration(to: now) >= configuration.idleHandBack else { return }
        lastIdleSweep = now
        let calm = lastBusy.duration(to: now) >= configuration.idleHandBack
        let idle = entries.filter { calm || $0.value.lastRead.duration(to: now) >= configuration.idleHandBack }
        for (id, entry) in idle {
            forget(id, open: true)
            entry.reader.returnToNIO()
        }
    }
}

/// Every loop's `ReadPoller`, and NIO's tick callback that tells them a turn ended: the
/// event-loop group of a server that polls is made with this as its metrics delegate.
final class ReadPollers: NIOEventLoopMetricsDelegate, Sendable {
    let configuration: ReadPoller.Configuration
    private let loops = Mutex<[ObjectIdentifier: ReadPoller]>([:])
    private let counted: @Sendable (Int) -> Void

    init(configuration: ReadPoller.Configuration, counted: @escaping @Sendable (Int) -> Void = { _ in }) {
        self.configuration = configuration
        self.counted = counted
    }

    /// `loop`'s poller, made on first use; nil if no epoll set can be made.
    func poller(for loop: any EventLoop) -> ReadPoller? {
        loops.withLock { map in
            let key = ObjectIdentifier(loop)
            if let existing = map[key] { return existing }
            guard let made = ReadPoller(eventLoop: loop, configuration: configuration, counted: counted) else { return nil }
            map[key] = made
            return made
        }
    }

    func processedTick(info: NIOEventLoopTickInfo) {
        loops.withLock { $0[info.eventLoopID] }?.turnEnded()
    }
}
