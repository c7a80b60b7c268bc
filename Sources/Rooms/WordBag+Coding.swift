import DrawProtocol
import Foundation

/// How a bag is stored in a room's snapshot, which the server writes every time the room
/// changes: the words, unless they are exactly a bundled list (then only its language code,
/// `"list":"de"`, and the list's fingerprint), and the order of the words still to come as
/// base64 of 16-bit positions. Writing the English list and the pending words as JSON
/// strings was most of the cost of persisting a room.
///
/// Snapshots written before (`words` and `pending` as strings) still decode.
extension WordBag: Codable {
    private enum CodingKeys: String, CodingKey {
        case words, pending, list, listFingerprint, order
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        // `list` is set only where the words are exactly that list (`forGame`, decoding), so
        // the snapshot written on every room change does not compare thousands of words.
        if let list {
            try container.encode(list, forKey: .list)
            try container.encode(WordList.fingerprint(of: list), forKey: .listFingerprint)
        } else if words == WordList.english {
            // A bag made before bags knew their list.
            try container.encode(WordLanguage.defaultCode, forKey: .list)
            try container.encode(WordList.fingerprint(of: WordLanguage.defaultCode), forKey: .listFingerprint)
        } else {
            try container.encode(words, forKey: .words)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(pending.count * 2)
        for position in pending {
            bytes.append(UInt8(position >> 8))
            bytes.append(UInt8(position & 0xFF))
        }
        try container.encode(Data(bytes).base64EncodedString(), forKey: .order)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard container.contains(.order) else {
            // The earlier form: every word and every pending word as strings.
            let words = try container.decode([String].self, forKey: .words)
            let pendingWords = try container.decode([String].self, forKey: .pending)
            var position: [String: UInt16] = [:]
            for (index, word) in words.enumerated() where index < Self.maxWords { position[word] = position[word] ?? UInt16(index) }
            let pending = try pendingWords.map { word in
                guard let index = position[word] else {
                    throw DecodingError.dataCorruptedError(forKey: .pending, in: container, debugDescription: "pending word not in the bag")
                }
                return index
            }
            self.init(words: words, pending: pending)
            return
        }
        let words: [String]
        let list = try container.decodeIfPresent(String.self, forKey: .list)
        if let list {
            guard WordLanguage.codes.contains(list) else {
                throw DecodingError.dataCorruptedError(forKey: .list, in: container, debugDescription: "unknown word list \(list)")
            }
            words = WordList.words(for: list)
            guard try container.decode(String.self, forKey: .listFingerprint) == WordList.fingerprint(of: list) else {
                // Stored by a server with another version of this list: the positions mean
                // other words now, so the bag starts a fresh cycle of this list.
                self.init(words: words, pending: words.indices.reversed().map { UInt16($0) }, list: list)
                return
            }
        } else {
            words = try container.decode([String].self, forKey: .words)
        }
        guard words.count <= Self.maxWords,
              let bytes = Data(base64Encoded: try container.decode(String.self, forKey: .order)), bytes.count % 2 == 0 else {
            throw DecodingError.dataCorruptedError(forKey: .order, in: container, debugDescription: "unreadable word order")
        }
        var pending: [UInt16] = []
        pending.reserveCapacity(bytes.count / 2)
        var iterator = bytes.makeIterator()
        while let high = iterator.next(), let low = iterator.next() {
            let position = UInt16(high) << 8 | UInt16(low)
            guard Int(position) < words.count else {
                throw DecodingError.dataCorruptedError(forKey: .order, in: container, debugDescription: "word position out of range")
            }
            pending.append(position)
        }
        self.init(words: words, pending: pending, list: list)
    }
}

extension WordList {
    /// Identifies each bundled list's exact contents (FNV-1a over its words), so a stored bag
    /// that refers to a list by name is not read against a different version of it.
    static let fingerprints: [String: String] = bundled.mapValues { words in
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for word in words {
            for byte in word.utf8 + [0] {
                hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
            }
        }
        return String(hash, radix: 16)
    }

    static func fingerprint(of list: String) -> String { fingerprints[list] ?? "" }
}
