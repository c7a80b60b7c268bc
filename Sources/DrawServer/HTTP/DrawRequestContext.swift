import Hummingbird
import NIOCore

/// The request context of every route: it keeps the channel so a WebSocket session can
/// cut off a client that stopped reading, and the peer address for per-IP limits.
struct DrawRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.channel = source.channel
    }

    /// The peer's IP address as text ("127.0.0.1", "::1"), or "unknown".
    var remoteIP: String {
        channel.remoteAddress?.ipAddress ?? "unknown"
    }
}
