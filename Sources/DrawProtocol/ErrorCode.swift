/// The error codes of protocol section 2.3, plus this server's additions (docs/PROTOCOL.md).
public enum ErrorCode: String, Sendable, Hashable, CaseIterable {
    case badJSON = "bad_json"
    case badMessage = "bad_message"
    case badName = "bad_name"
    case notInRoom = "not_in_room"
    case roomNotFound = "room_not_found"
    case roomFull = "room_full"
    case alreadyInRoom = "already_in_room"
    case banned
    case notHost = "not_host"
    case notDrawer = "not_drawer"
    case wrongPhase = "wrong_phase"
    case notEnoughPlayers = "not_enough_players"
    case rateLimited = "rate_limited"
    case tooLarge = "too_large"
    case badOps = "bad_ops"
    case notOnline = "not_online"
    /// `rate` from the drawer or a spectator (docs/PROTOCOL.md, "Ratings").
    case notGuesser = "not_guesser"
    /// A saturated node refusing new rooms, joins and quick plays (docs/PROTOCOL.md).
    case serverBusy = "server_busy"
    /// Added: a new room is refused while storage fails and its held changes reached their bound.
    case storageUnavailable = "storage_unavailable"
    /// Added: `addBot` when bots already hold `maxPlayers - 1` seats (one stays for a person).
    case tooManyBots = "too_many_bots"
    /// Added: `removeBot` naming a member who is a person (use `kick`).
    case notABot = "not_a_bot"
    /// Added: a player's reports beyond its budget (docs/PROTOCOL.md, "Reports").
    case reportLimited = "report_limited"
    /// Added: a report naming a drawing or chat line the reporter cannot have seen.
    case unknownTarget = "unknown_target"
}

/// An error answer to one client message: `{"t":"error","code","message","ref"}`.
public struct ProtocolError: Error, Sendable, Hashable, CustomStringConvertible {
    public var code: ErrorCode
    public var message: String
    /// The `t` of the offending message, `"binary"` for a binary frame, `""` when it was not JSON.
    public var ref: String
    /// For `server_busy`: how long to wait before trying again.
    public var retryAfterMs: Int?

    public init(_ code: ErrorCode, _ message: String, ref: String = "") {
        self.code = code
        self.message = message
        self.ref = ref
    }

    public var description: String { "\(code.rawValue): \(message)" }

    package func referencing(_ ref: String) -> ProtocolError {
        var copy = self
        copy.ref = ref
        return copy
    }
}
