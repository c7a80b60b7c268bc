#if canImport(Glibc)
import Glibc
#endif

/// When a read's bytes reached the load generator's socket, from the kernel's receive
/// timestamp (`SO_TIMESTAMPNS`), on the clock the ledgers use (`NIODeadline` uptime).
///
/// The generator shares one core with every guesser it plays; at 512 rooms x 8 it is
/// busy, so the time it gets round to a read is its own queueing, not the server's. The
/// kernel stamps a packet when the server's send puts it on loopback, whoever reads it and
/// whenever. TCP reports the stamp of the newest packet a read returned, so bytes that
/// waited behind a later packet are stamped late: the latency is never flattered.
enum ReplayReceiveStamp {
    /// `SO_TIMESTAMPNS` (asm-generic `SO_TIMESTAMPNS_OLD`; a macro Swift does not import).
    /// The control message it produces has the same type (`SCM_TIMESTAMPNS`).
    static let timestampOption: CInt = 35
    /// Room for one `cmsghdr` and a `timespec`, with slack for anything else the kernel adds.
    static let controlCapacity = 64
    /// A stamp this far from now is not trusted (a clock step): the read time is used.
    static let maximumAgeNanoseconds: UInt64 = 10_000_000_000

    /// The `SCM_TIMESTAMPNS` stamp in a `recvmsg` control buffer of `length` bytes, in
    /// nanoseconds of `CLOCK_REALTIME`; nil when there is none (the option is off, or the
    /// kernel did not stamp the packet).
    static func realtimeStamp(in control: UnsafeRawBufferPointer, length: Int) -> UInt64? {
        // struct cmsghdr { size_t len; int level; int type; } then the data, each message
        // aligned to size_t (CMSG_FIRSTHDR / CMSG_NXTHDR, which Swift does not import).
        let word = MemoryLayout<Int>.size
        let header = word + 2 * MemoryLayout<CInt>.size
        let end = min(length, control.count)
        var offset = 0
        while offset + header <= end {
            let messageLength = Int(control.loadUnaligned(fromByteOffset: offset, as: UInt.self))
            guard messageLength >= header, offset + messageLength <= end else { return nil }
            let level = control.loadUnaligned(fromByteOffset: offset + word, as: CInt.self)
            let type = control.loadUnaligned(fromByteOffset: offset + word + 4, as: CInt.self)
            if level == SOL_SOCKET, type == timestampOption, messageLength - header >= 2 * word {
                let seconds = control.loadUnaligned(fromByteOffset: offset + header, as: Int.self)
                let nanoseconds = control.loadUnaligned(fromByteOffset: offset + header + word, as: Int.self)
                guard seconds > 0, (0..<1_000_000_000).contains(nanoseconds) else { return nil }
                return UInt64(seconds) * 1_000_000_000 + UInt64(nanoseconds)
            }
            offset += (messageLength + word - 1) / word * word
        }
        return nil
    }

    /// The arrival on the uptime clock: now (uptime) less the stamp's age (realtime).
    /// Without a stamp, or with one that cannot be right, the read time `nowUptime`.
    static func arrival(stamp: UInt64?, nowRealtime: UInt64, nowUptime: UInt64) -> UInt64 {
        guard let stamp else { return nowUptime }
        let age = nowRealtime > stamp ? nowRealtime - stamp : 0
        guard age < maximumAgeNanoseconds, age < nowUptime else { return nowUptime }
        return nowUptime - age
    }

    static func realtimeNow() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }
}
