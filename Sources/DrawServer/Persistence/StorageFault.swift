/// Why storage refused a commit, as the writer, `/readyz` and the moderator page name it.
struct StorageFault: Sendable, Hashable, CustomStringConvertible {
    enum Kind: String, Sendable, Hashable {
        /// No space left (SQLite `SQLITE_FULL`, a `max_page_count` reached, a full disk).
        case diskFull = "disk_full"
        /// The operating system failed a read or write (`SQLITE_IOERR*`).
        case ioError = "io_error"
        /// Another connection holds the database (`SQLITE_BUSY`, `SQLITE_LOCKED`).
        case busy
        /// The file or its filesystem became read-only (`SQLITE_READONLY`).
        case readOnly = "read_only"
        /// A database server cannot be reached (a lost connection).
        case unreachable
        /// The file is damaged (`SQLITE_CORRUPT`, `SQLITE_NOTADB`).
        case corrupt
        /// Anything else: a constraint, a value that cannot be encoded, a bug.
        case other

        /// Whether waiting can make the fault pass: such batches are held and retried;
        /// the others are given up, since retrying them would block every later change.
        var isTransient: Bool {
            switch self {
            case .diskFull, .ioError, .busy, .readOnly, .unreachable: true
            case .corrupt, .other: false
            }
        }

        /// Words for `/readyz`, logs and the moderator page.
        var reason: String {
            switch self {
            case .diskFull: "disk full"
            case .ioError: "I/O error"
            case .busy: "database busy"
            case .readOnly: "database read-only"
            case .unreachable: "database unreachable"
            case .corrupt: "database corrupt"
            case .other: "commit refused"
            }
        }
    }

    var kind: Kind
    /// The store's own words (for example `SQLite error 13: database or disk is full`), on one line.
    var detail: String

    init(_ kind: Kind, detail: String) {
        self.kind = kind
        self.detail = detail.split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    var isTransient: Bool { kind.isTransient }
    var description: String { "\(kind.reason) (\(detail))" }
}
