import DrawProtocol
import Hummingbird
import Rooms

/// Bearer-token check for the moderator routes, in constant time.
struct ModeratorAuth: Sendable {
    private let tokenDigest: [UInt8]?

    init(token: String?) {
        tokenDigest = token.flatMap { $0.isEmpty ? nil : TokenHash.digest(Array($0.utf8)) }
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
        guard let expected = tokenDigest, let token = Self.bearerToken(in: header) else { return .refused }
        let given = TokenHash.digest(Array(token.utf8))
        // Compare digests of equal length so the time taken says nothing about the token.
        var difference: UInt8 = 0
        for (a, b) in zip(given, expected) { difference |= a ^ b }
        return difference == 0 ? .moderator : .refused
    }

    /// The token of an `Authorization: Bearer <token>` header: the scheme is matched
    /// case-insensitively and followed by one or more spaces (RFC 7235, RFC 6750).
    static func bearerToken(in header: String) -> Substring? {
        guard let space = header.firstIndex(of: " "), header[..<space].lowercased() == "bearer" else { return nil }
        var token = header[space...]
        while token.first == " " { token = token.dropFirst() }
        while token.last == " " { token = token.dropLast() }
        return token.isEmpty ? nil : token
    }

    /// Throws 401 unless the request carries the moderator token.
    func require(_ request: Request) throws {
        guard check(request) == .moderator else { throw HTTPError(.unauthorized) }
    }
}
