import NIOCore

/// The shell's "now" for activity and deadlines: by default the event loop's own clock, so
/// on an `EmbeddedEventLoop` a test moves it with `advanceTime` and waits for nothing; or
/// any other monotonic source a test hands in.
struct ShellClock: Sendable {
    /// Monotonic nanoseconds since an arbitrary origin.
    let nanoseconds: @Sendable () -> UInt64

    /// The process's monotonic clock (what a real event loop's `now` reads).
    static let system = ShellClock { NIODeadline.now().uptimeNanoseconds }

    /// `loop`'s time: real on a real loop, virtual on an `EmbeddedEventLoop`.
    static func of(_ loop: any EventLoop) -> ShellClock {
        ShellClock { loop.now.uptimeNanoseconds }
    }
}
