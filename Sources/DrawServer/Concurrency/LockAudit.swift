import Synchronization

/// Records a system call made while a lock it watches is held, so a test can show that
/// none is: a system call under a room's lock (writing a socket, waking another event
/// loop's `eventfd`, waking a thread for a task) makes every thread waiting for that room
/// wait for the kernel too.
///
/// The server's locks that must stay free of system calls are taken through `holding`,
/// and the places where the shell makes one call `systemCall`. Both do nothing in a
/// release build, and nothing without an audit (the server is given one only in tests),
/// so the hot path pays for neither.
package final class LockAudit: Sendable {
    /// A system call made while a watched lock was held.
    package struct Violation: Sendable, Equatable, CustomStringConvertible {
        package var lock: String
        package var call: String
        package var description: String { "\(call) while holding \(lock)" }
    }

    private struct Record {
        var violations: [Violation] = []
        var holds = 0
        var acquisitions: [String] = []
    }

    private let record = Mutex(Record())

    package init() {}

    /// System calls made under a watched lock, in order.
    package var violations: [Violation] { record.withLock { $0.violations } }
    /// How many times a watched lock was taken: a test checks this is not zero, so an audit
    /// that watched nothing cannot pass.
    package var holds: Int { record.withLock { $0.holds } }
    /// The locks taken while a watched lock was held, in order, and then forgotten: a test
    /// counts the locks one call takes.
    package func takeAcquisitions() -> [String] {
        record.withLock { record in
            defer { record.acquisitions = [] }
            return record.acquisitions
        }
    }

    /// The lock the current thread holds under an audit.
    private struct Held: Sendable {
        var audit: LockAudit
        var lock: StaticString
    }

    #if DEBUG
    @TaskLocal private static var held: Held?
    #endif

    /// Runs `body`, which takes `lock`, with system calls watched.
    @inline(__always)
    static func holding<T>(_ audit: LockAudit?, _ lock: StaticString, _ body: () throws -> T) rethrows -> T {
        #if DEBUG
        if let audit {
            audit.record.withLock { $0.holds += 1; $0.acquisitions.append("\(lock)") }
            return try $held.withValue(Held(audit: audit, lock: lock), operation: body)
        }
        #endif
        return try body()
    }

    /// The shell takes another lock (`lock` names it); recorded while a watched lock is held.
    @inline(__always)
    static func acquired(_ lock: StaticString) {
        #if DEBUG
        guard let held else { return }
        held.audit.record.withLock { $0.acquisitions.append("\(lock)") }
        #endif
    }

    /// The shell is about to make a system call (`call` names it).
    @inline(__always)
    static func systemCall(_ call: StaticString) {
        #if DEBUG
        guard let held else { return }
        let violation = Violation(lock: "\(held.lock)", call: "\(call)")
        held.audit.record.withLock { $0.violations.append(violation) }
        #endif
    }
}
