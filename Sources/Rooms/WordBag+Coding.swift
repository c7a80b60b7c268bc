import Foundation

/// How a bag is stored in a room's snapshot, which the server writes every time the room
/// changes: the words, unless they are exactly the bundled English list (then only
/// `"list":"en"` and the list's fingerprint), and the order of the words still to come as
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
        if words == WordList.english {
            try container.encode("en", forKey: .list)
            try container.encode(WordList.englishFingerprint, forKey: .listFingerprint)
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
        if let list = try container.decodeIfPresent(String.self, forKey: .list) {
            guard list == "en" else {
                throw DecodingError.dataCorruptedError(forKey: .list, in: container, debugDescription: "unknown word list \(list)")
            }
            words = WordList.english
            guard try container.decode(String.self, forKey: .listFingerprint) == WordList.englishFingerprint else {
                // Stored by a server with another English list: the positions mean other
                // words now, so the bag starts a fresh cycle of this list.
                self.init(words: words, pending: words.indices.reversed().map { UInt16($0) })
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
        self.init(words: words, pending: pending)
    }
}

extension WordList {
    /// Identifies the bundled English list's exact contents (FNV-1a over its words), so a
    /// stored bag that refers to it by name is not read against a different list.
    static let englishFingerprint: String = {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for word in english {
            for byte in word.utf8 + [0] {
                hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
            }
        }
        return String(hash, radix: 16)
    }()
}
