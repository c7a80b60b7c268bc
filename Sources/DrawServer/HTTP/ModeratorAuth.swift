import Hummingbird
import Rooms

/// Bearer-token check for the moderator routes, in constant time.
struct ModeratorAuth: Sendable {
    private let tokenDigest: [UInt8]?

    init(token: String?) {
        tokenDigest = token.flatMap { $0.isEmpty ? nil : SHA256.hash(Array($0.utf8)) }
    }

    enum Outcome {
        /// No Authorization header at all.
        case anonymous
        case moderator
        /// A header with a wrong or unusable token (or no token configured).
        case refused
    }

    func check(_ request: Request) -> Outcome {
        guard let header = request.headers[.authorization] else { return .anonymous }
        let prefix = "Bearer "
        guard let expected = tokenDigest, header.hasPrefix(prefix) else { return .refused }
        let given = SHA256.hash(Array(header.dropFirst(prefix.count).utf8))
        // Compare digests of equal length so the time taken says nothing about the token.
        var difference: UInt8 = 0
        for (a, b) in zip(given, expected) { difference |= a ^ b }
        return difference == 0 ? .moderator : .refused
    }

    /// Throws 401 unless the request carries the moderator token.
    func require(_ request: Request) throws {
        guard check(request) == .moderator else { throw HTTPError(.unauthorized) }
    }
}
