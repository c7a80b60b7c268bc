/// The telephone game's messages (issue 36; docs/PROTOCOL.md, "Telephone mode").

/// What a player does in one step: write a prompt, draw the text it was handed, or
/// describe the drawing it was handed.
public enum PhoneStepKind: String, Sendable, Hashable, Codable, CaseIterable {
    case write
    case draw
    case describe
}

/// `phoneStep`: one player's task in the step that starts (or, with `submitted`, the one
/// still running when it comes back).
public struct PhoneStep: Sendable, Hashable {
    public var step: Int
    public var steps: Int
    public var kind: PhoneStepKind
    public var remainingMs: Int
    /// The text to draw (kind `draw`).
    public var prompt: String?
    /// The drawing to describe (kind `describe`).
    public var drawing: DrawingID?
    /// Only in a copy sent again to a player who came back: whether it had submitted.
    public var submitted: Bool?

    public init(
        step: Int, steps: Int, kind: PhoneStepKind, remainingMs: Int, prompt: String? = nil, drawing: DrawingID? = nil,
        submitted: Bool? = nil
    ) {
        self.step = step
        self.steps = steps
        self.kind = kind
        self.remainingMs = remainingMs
        self.prompt = prompt
        self.drawing = drawing
        self.submitted = submitted
    }
}

/// One entry of a chain in the album: a text (the first prompt or a description) or a
/// drawing, by the player who made it. A drawing left empty has no id.
public struct AlbumEntry: Sendable, Hashable, Codable {
    public enum Kind: String, Sendable, Hashable, Codable {
        case text
        case drawing
    }

    public var kind: Kind
    public var by: PlayerID
    public var text: String?
    public var drawing: DrawingID?

    public init(kind: Kind, by: PlayerID, text: String? = nil, drawing: DrawingID? = nil) {
        self.kind = kind
        self.by = by
        self.text = text
        self.drawing = drawing
    }

    private enum CodingKeys: String, CodingKey { case kind, by, text, drawing }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        kind = try c.decode(Kind.self, forKey: .kind)
        by = try c.decode(PlayerID.self, forKey: .by)
        text = try c.decodeIfPresent(String.self, forKey: .text)
        drawing = try c.decodeIfPresent(String.self, forKey: .drawing).flatMap { DrawingID(parsing: $0) }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(kind, forKey: .kind)
        try c.encode(by, forKey: .by)
        try c.encodeIfPresent(text, forKey: .text)
        try c.encodeIfPresent(drawing?.rawValue, forKey: .drawing)
    }
}

/// One chain of the album: the player who started it, and its entries in step order.
public struct AlbumChain: Sendable, Hashable, Codable {
    public var owner: PlayerID
    public var entries: [AlbumEntry]

    public init(owner: PlayerID, entries: [AlbumEntry]) {
        self.owner = owner
        self.entries = entries
    }
}

extension PhoneStep {
    func writeFields(to w: inout JSONWriter) {
        w.field("step", step)
        w.field("steps", steps)
        w.field("kind", kind.rawValue)
        w.field("remainingMs", remainingMs)
        if let prompt { w.field("prompt", prompt) }
        if let drawing {
            w.key("drawing")
            drawing.writeLinks(to: &w, timelapse: false)
        }
        if let submitted { w.field("submitted", submitted) }
    }

    init?(json m: JSONValue) {
        guard let step = m["step"]?.intValue, let steps = m["steps"]?.intValue,
              let kind = m["kind"]?.stringValue.flatMap(PhoneStepKind.init(rawValue:)) else { return nil }
        self.init(
            step: step, steps: steps, kind: kind, remainingMs: m["remainingMs"]?.intValue ?? 0,
            prompt: m["prompt"]?.stringValue, drawing: m["drawing"]?["id"]?.stringValue.flatMap { DrawingID(parsing: $0) },
            submitted: m["submitted"]?.boolValue
        )
    }
}

extension AlbumChain {
    func write(to w: inout JSONWriter) {
        w.beginObject()
        w.field("owner", owner.rawValue)
        w.key("entries")
        w.beginArray()
        for entry in entries {
            w.beginObject()
            w.field("kind", entry.kind.rawValue)
            w.field("by", entry.by.rawValue)
            if let text = entry.text { w.field("text", text) }
            if let drawing = entry.drawing {
                w.key("drawing")
                drawing.writeLinks(to: &w, timelapse: true)
            }
            w.endObject()
        }
        w.endArray()
        w.endObject()
    }

    init?(json m: JSONValue) {
        guard let owner = m.playerID("owner"), let entries = m["entries"]?.arrayValue else { return nil }
        self.init(owner: owner, entries: entries.compactMap { e in
            guard let kind = e["kind"]?.stringValue.flatMap(AlbumEntry.Kind.init(rawValue:)), let by = e.playerID("by") else { return nil }
            return AlbumEntry(
                kind: kind, by: by, text: e["text"]?.stringValue,
                drawing: e["drawing"]?["id"]?.stringValue.flatMap { DrawingID(parsing: $0) }
            )
        })
    }
}

extension DrawingID {
    /// `{"id":ID,"png":"/d/ID.png"}`, with `"timelapse"` when asked.
    func writeLinks(to w: inout JSONWriter, timelapse: Bool) {
        w.beginObject()
        w.field("id", rawValue)
        w.field("png", pngPath)
        if timelapse { w.field("timelapse", timelapsePath) }
        w.endObject()
    }
}
