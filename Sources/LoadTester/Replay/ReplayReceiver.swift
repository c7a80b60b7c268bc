#if canImport(Glibc)
import Glibc
#endif
import CEpoll
import NIOCore

/// What reads an upgraded connection's bytes when the receiver does (`ReplayReceiver`).
protocol ReplayReceiving: AnyObject {
    /// Bytes read from the socket, in order, and when they reached it (uptime nanoseconds).
    func receive(_ bytes: ByteBuffer, arrivedAt nanoseconds: UInt64)
    /// The socket reached its end or failed: the connection is over.
    func receiveEnded(errno code: CInt?)
}

/// `replay --kernel-receive`: reads every upgraded connection of one event loop itself,
/// with `recvmsg` and the kernel's receive timestamps, instead of through NIO's read path.
///
/// Why: on the generator's one busy core, a frame read late looked late. Here a frame's
/// arrival is when the kernel queued it (`ReplayReceiveStamp`), so how long the generator
/// took to get to the socket is not in the latency, for any server alike. It is cheaper
/// too: one epoll set polled every `interval` on the loop, one reusable read buffer, and
/// reads that gather what arrived since the last poll instead of one read per wake-up.
///
/// Runs on its event loop only (hence `@unchecked Sendable`). The connections' NIO channels
/// stay open with `autoRead` off: NIO still writes, closes and sees the end of the stream.
final class ReplayReceiver: @unchecked Sendable {
    struct Configuration {
        /// How often the loop reads what arrived. Not in any latency (the stamps are the
        /// kernel's); it only delays the generator's own answers (guesses, pongs) a little.
        /// 0.2 ms: with 1 ms, p50 at 256 x 8 read 0.4-0.5 ms high (a read is stamped with
        /// its newest packet) and the client used more CPU, not less (docs/benchmarks/replay.md).
        var interval = TimeAmount.microseconds(200)
        var readBufferSize = 1 << 16
        var eventsPerWait = 512
    }

    let eventLoop: any EventLoop
    let configuration: Configuration
    private let epoll: CInt
    private var entries: [UInt64: (socket: CInt, reader: any ReplayReceiving)] = [:]
    private var nextID: UInt64 = 1
    private let events: UnsafeMutableBufferPointer<epoll_event>
    private let buffer: UnsafeMutableRawBufferPointer
    private let control: UnsafeMutableRawBufferPointer
    private let allocator = ByteBufferAllocator()
    private var task: RepeatedTask?
    /// Reads that carried a kernel stamp, and reads that had none (timed at the read).
    private(set) var stampedReads = 0
    private(set) var unstampedReads = 0

    init?(eventLoop: any EventLoop, configuration: Configuration = Configuration()) {
        let epoll = epoll_create1(CInt(EPOLL_CLOEXEC))
        guard epoll >= 0 else { return nil }
        self.eventLoop = eventLoop
        self.configuration = configuration
        self.epoll = epoll
        events = .allocate(capacity: configuration.eventsPerWait)
        buffer = .allocate(byteCount: configuration.readBufferSize, alignment: 16)
        control = .allocate(byteCount: ReplayReceiveStamp.controlCapacity, alignment: 16)
    }

    deinit {
        // Its loop's shutdown ends the polling task (weak, so it never outlives this).
        close(epoll)
        events.deallocate()
        buffer.deallocate()
        control.deallocate()
    }

    /// Takes over reading `socket` (its channel must have `autoRead` off). Returns the id to
    /// `forget` it by, or nil when the socket cannot be watched (the caller keeps NIO reading).
    func register(socket: CInt, reader: any ReplayReceiving) -> UInt64? {
        eventLoop.preconditionInEventLoop()
        var on: CInt = 1
        guard setsockopt(socket, SOL_SOCKET, ReplayReceiveStamp.timestampOption, &on, socklen_t(MemoryLayout<CInt>.size)) == 0 else { return nil }
        let id = nextID
        var event = epoll_event()
        event.events = EPOLLIN.rawValue | EPOLLRDHUP.rawValue
        event.data.u64 = id
        guard epoll_ctl(epoll, EPOLL_CTL_ADD, socket, &event) == 0 else { return nil }
        nextID += 1
        entries[id] = (socket, reader)
        if task == nil {
            task = eventLoop.scheduleRepeatedTask(initialDelay: configuration.interval, delay: configuration.interval) { [weak self] _ in
                self?.poll()
            }
        }
        return id
    }

    /// The connection closed (NIO closed the socket, which also left the epoll set): ids are
    /// never reused, so an event still queued for it is ignored.
    func forget(_ id: UInt64) {
        entries[id] = nil
    }

    /// Reads every socket that has bytes (or its end) waiting.
    func poll() {
        var ready: CInt
        repeat {
            ready = epoll_wait(epoll, events.baseAddress, CInt(events.count), 0)
            guard ready > 0 else { return }
            for index in 0..<Int(ready) {
                let id = events[index].data.u64
                drain(id)
            }
        } while ready == CInt(events.count)
    }

    private func drain(_ id: UInt64) {
        while let entry = entries[id] {
            let count = read(entry.socket)
            if count > 0 {
                let nowUptime = NIODeadline.now().uptimeNanoseconds
                let stamp = ReplayReceiveStamp.realtimeStamp(in: UnsafeRawBufferPointer(control), length: lastControlLength)
                if stamp == nil { unstampedReads += 1 } else { stampedReads += 1 }
                let arrival = ReplayReceiveStamp.arrival(stamp: stamp, nowRealtime: ReplayReceiveStamp.realtimeNow(), nowUptime: nowUptime)
                let bytes = allocator.buffer(bytes: UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
                entry.reader.receive(bytes, arrivedAt: arrival)
                // A short read emptied the socket; a full one may have left more.
                if count < buffer.count { return }
            } else if count == 0 || (errno != EINTR && errno != EAGAIN && errno != EWOULDBLOCK) {
                let code: CInt? = count == 0 ? nil : errno
                // Still open (NIO has not closed it): out of the set before it is closed.
                var unused = epoll_event()
                _ = epoll_ctl(epoll, EPOLL_CTL_DEL, entry.socket, &unused)
                entries[id] = nil
                entry.reader.receiveEnded(errno: code)
                return
            } else if errno != EINTR {
                return
            }
        }
    }

    private var lastControlLength = 0

    /// One `recvmsg` into the shared buffer; the control length is kept for the stamp.
    private func read(_ socket: CInt) -> Int {
        var vector = iovec(iov_base: buffer.baseAddress, iov_len: buffer.count)
        return withUnsafeMutablePointer(to: &vector) { vectorPointer in
            var message = msghdr()
            message.msg_iov = vectorPointer
            message.msg_iovlen = 1
            message.msg_control = control.baseAddress
            message.msg_controllen = control.count
            let count = recvmsg(socket, &message, CInt(MSG_DONTWAIT))
            lastControlLength = count > 0 ? Int(message.msg_controllen) : 0
            return count
        }
    }
}
