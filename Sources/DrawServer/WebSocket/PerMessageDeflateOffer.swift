/// The server's side of permessage-deflate negotiation (RFC 7692 section 7.1).
///
/// drawserver inflates what clients compress but sends its own messages uncompressed
/// (every frame is encoded once and shared by all recipients, which per-connection
/// compression contexts would rule out, and drawing frames hardly compress). So every
/// parameter asking the server to limit its compression is honoured by construction, and
/// the client's window is never limited: the inflater always uses the largest.
enum PerMessageDeflateOffer {
    /// The `Sec-WebSocket-Extensions` response for the first acceptable permessage-deflate
    /// offer among the request's header values, or nil to use no extension.
    static func response(to headerValues: [String]) -> String? {
        for offer in headerValues.flatMap({ $0.split(separator: ",") }) {
            if let response = accept(Substring(offer)) { return response }
        }
        return nil
    }

    /// The response accepting one offer, or nil when it is not permessage-deflate or is
    /// malformed (unknown or repeated parameter, bad value), which declines it.
    private static func accept(_ offer: Substring) -> String? {
        let parts = offer.split(separator: ";", omittingEmptySubsequences: false).map { $0.trimmingSpaces }
        guard parts.first?.lowercased() == "permessage-deflate" else { return nil }
        var seen: Set<String> = []
        var response = "permessage-deflate"
        for parameter in parts.dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = pair[0].trimmingSpaces.lowercased()
            var value: Substring? = pair.count == 2 ? pair[1].trimmingSpaces : nil
            if let quoted = value, quoted.count >= 2, quoted.first == "\"", quoted.last == "\"" {
                value = quoted.dropFirst().dropLast()
            }
            guard seen.insert(name).inserted else { return nil }
            switch name {
            case "server_no_context_takeover":
                guard value == nil else { return nil }
                response += "; server_no_context_takeover"
            case "client_no_context_takeover":
                // The client may reset its context per message; the inflater copes either way.
                guard value == nil else { return nil }
            case "server_max_window_bits":
                guard let bits = value.flatMap({ Int($0) }), (8...15).contains(bits), value?.first != "0" else { return nil }
                response += "; server_max_window_bits=\(bits)"
            case "client_max_window_bits":
                // Without a value the client only says it could use a smaller window.
                if let value {
                    guard let bits = Int(value), (8...15).contains(bits), value.first != "0" else { return nil }
                }
            default:
                return nil
            }
        }
        return response
    }
}

extension Substring {
    fileprivate var trimmingSpaces: Substring {
        var trimmed = self
        while let first = trimmed.first, first == " " || first == "\t" { trimmed.removeFirst() }
        while let last = trimmed.last, last == " " || last == "\t" { trimmed.removeLast() }
        return trimmed
    }
}
