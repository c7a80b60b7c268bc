import NIOCore

/// How the server closes a connection it ends itself, the way web servers do a lingering
/// close: the close frame goes out, then a FIN (output half-closed), and the server keeps
/// reading and discarding what the peer still sends until the peer closes too or a bound is
/// reached. A plain close while the peer's bytes sit unread in the kernel makes it send a
/// reset, and the peer's kernel then throws away everything the peer had not read yet: the
/// close frame and the errors sent just before it (a flooding client never learned why).
///
/// The bounds keep an abuser from holding the server: at most `maxDiscardedBytes` are read
/// (then reading stops and TCP pushes back on the peer, which still gets to read what the
/// server sent), and after `timeout` the connection is closed whatever the peer does.
struct LingeringClose: Sendable, Equatable {
    struct Configuration: Sendable, Equatable {
        var timeout: Duration = .seconds(2)
        var maxDiscardedBytes = 64 * 1024
    }

    enum Action: Equatable {
        /// Keep reading and discarding.
        case keepReading
        /// The byte bound is reached: stop reading, wait for the peer's close or the timeout.
        case stopReading
    }

    let configuration: Configuration
    private(set) var discardedBytes = 0

    init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// The peer sent `count` more bytes, which are discarded unread.
    mutating func discarded(_ count: Int) -> Action {
        discardedBytes += count
        return discardedBytes >= configuration.maxDiscardedBytes ? .stopReading : .keepReading
    }
}
