import Foundation
import DrawProtocol

/// libFuzzer target for the JSON client message decoder (protocol sections 2 and 3): the
/// whole input is one text frame as the server receives it.
///
/// Invariants checked (any violation traps, which libFuzzer reports as a crash):
/// 1. `ClientMessage.decode` never crashes and is deterministic.
/// 2. A decoded message's type is one of the protocol's, and equals the frame's `"t"`.
/// 3. A failure is `bad_json` (with `ref` ""), `bad_message` or `too_large`; when the frame
///    is an object with a string `"t"`, `ref` is that `t` unless `"t"` itself was missing.
/// 4. A decoded message written back as JSON decodes to the same message.
/// 5. Every field of a decoded message equals that field in the parsed JSON tree (defaults
///    and integer saturation applied): an oracle for the field mapping.
@c(LLVMFuzzerTestOneInput)
public func fuzzMessages(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size > 0 else { return 0 }
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let result = ClientMessage.decode(bytes)
    check(result == ClientMessage.decode(Array(bytes)), "decoding is not deterministic")

    let parsed = JSONValue.parse(bytes)
    var frameType: String?
    if case .object(let object)? = parsed, case .string(let type)? = object["t"] {
        frameType = type
    }

    switch result {
    case .success(let message):
        check(knownTypes.contains(message.type), "decoded a message of unknown type \(message.type)")
        check(frameType == message.type, "message type \(message.type) but the frame's t is \(String(describing: frameType))")
        checkAgainstRaw(message, parsed)
        let json = encode(message)
        let again = ClientMessage.decode(Array(json.utf8))
        check(again == .success(message), "\(message) written as \(json) decodes to \(again)")
    case .failure(let error):
        switch error.code {
        case .badJSON:
            check(error.ref == "", "bad_json with ref \(error.ref)")
            if case .object? = parsed { check(false, "bad_json for a JSON object") }
        case .badMessage, .tooLarge:
            if case .object? = parsed {} else { check(false, "\(error.code) for something that is not an object") }
            check(error.ref == (frameType ?? ""), "ref \(error.ref) for a frame whose t is \(String(describing: frameType))")
        default:
            check(false, "decode failed with code \(error.code)")
        }
        check(!error.message.isEmpty, "error without a message")
    }
    return 0
}

private let knownTypes: Set<String> = [
    "hello", "rooms", "create", "join", "quickplay", "leave", "invite", "settings", "ready",
    "start", "kick", "votekick", "spectate", "chat", "guess", "choose", "skip", "rate",
    "addBot", "removeBot", "gallery", "report", "phoneSubmit", "albumNext",
]

private func check(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() {
        fatalError("invariant violated: \(message())")
    }
}

/// The message as a client would write it.
private func encode(_ message: ClientMessage) -> String {
    var fields: [String: Any] = ["t": message.type]
    switch message {
    case let .hello(name, token, avatar):
        fields["name"] = name
        if let token { fields["token"] = token }
        if let avatar {
            fields["avatar"] = ["color": avatar.color, "eyes": avatar.eyes, "mouth": avatar.mouth, "accessory": avatar.accessory]
        }
    case let .create(name, isPublic, settings):
        if let name { fields["name"] = name }
        fields["public"] = isPublic
        fields["settings"] = encode(settings)
    case let .join(code, watch):
        fields["code"] = code
        if watch { fields["watch"] = true }
    case let .invite(id), let .kick(id), let .votekick(id): fields["playerId"] = id.rawValue
    case let .settings(settings): fields["settings"] = encode(settings)
    case let .ready(flag): fields["ready"] = flag
    case let .spectate(flag): fields["on"] = flag
    case let .chat(text), let .guess(text): fields["text"] = text
    case let .choose(index): fields["index"] = index
    case let .rate(rating): fields["value"] = rating?.rawValue ?? "none"
    case let .gallery(listed): fields["listed"] = listed
    case let .addBot(level): fields["level"] = level.rawValue
    case let .removeBot(id): fields["playerId"] = id.rawValue
    case let .report(request):
        fields["reason"] = request.reason.rawValue
        switch request.target {
        case .drawing(let id):
            fields["kind"] = "drawing"
            if let id { fields["drawing"] = id.rawValue }
        case .chat(let from, let text):
            fields["kind"] = "chat"
            fields["from"] = from.rawValue
            fields["text"] = text
        }
    case let .phoneSubmit(text): if let text { fields["text"] = text }
    case .rooms, .quickplay, .leave, .start, .skip, .albumNext: break
    }
    let data = try! JSONSerialization.data(withJSONObject: fields)
    return String(decoding: data, as: UTF8.self)
}

private func encode(_ patch: SettingsPatch) -> [String: Any] {
    var fields: [String: Any] = [:]
    if let value = patch.rounds { fields["rounds"] = value }
    if let value = patch.drawTimeSec { fields["drawTimeSec"] = value }
    if let value = patch.maxPlayers { fields["maxPlayers"] = value }
    if let value = patch.wordChoices { fields["wordChoices"] = value }
    if let value = patch.hints { fields["hints"] = value }
    if let value = patch.language { fields["language"] = value }
    if let value = patch.customWords { fields["customWords"] = value }
    if let value = patch.customOnly { fields["customOnly"] = value }
    if let value = patch.streamer { fields["streamer"] = value }
    if let value = patch.mode { fields["mode"] = value.rawValue }
    if let value = patch.writeTimeSec { fields["writeTimeSec"] = value }
    return fields
}

/// Each field the message carries must be the raw field's value in the parsed JSON tree
/// (absent or null fields give the documented defaults, integers saturate at 1e15): checks
/// the decoder's field mapping independently of how it is written. (The tree is the
/// server's own `JSONValue.parse`, not a second parser: parsers legitimately differ on
/// duplicate keys, see docs/RELIABILITY-conformance.md.)
private func checkAgainstRaw(_ message: ClientMessage, _ tree: JSONValue?) {
    guard case .object(let raw)? = tree else {
        check(false, "decoded \(message) from a frame that is not a JSON object")
        return
    }
    func value(_ object: [String: JSONValue], _ key: String) -> JSONValue? {
        guard let value = object[key], value != .null else { return nil }
        return value
    }
    func string(_ value: JSONValue?) -> String? {
        if case .string(let text)? = value { return text }
        return nil
    }
    func bool(_ value: JSONValue?) -> Bool? {
        if case .bool(let flag)? = value { return flag }
        return nil
    }
    func integer(_ value: JSONValue?) -> Int? {
        guard case .number(let number)? = value else { return nil }
        if number >= 1e15 { return 1_000_000_000_000_000 }
        if number <= -1e15 { return -1_000_000_000_000_000 }
        return Int(exactly: number)
    }
    func same(_ decoded: String?, _ key: String, in object: [String: JSONValue] = raw) {
        check(decoded == string(value(object, key)), "field \(key): decoded \(String(describing: decoded)), raw \(String(describing: object[key]))")
    }
    func same(_ decoded: Bool, _ key: String, default fallback: Bool) {
        let expected = value(raw, key) == nil ? fallback : bool(value(raw, key))
        check(decoded == expected, "field \(key): decoded \(decoded), raw \(String(describing: raw[key]))")
    }
    func settingsObject() -> [String: JSONValue] {
        if case .object(let object)? = value(raw, "settings") { return object }
        return [:]
    }
    func compare(_ patch: SettingsPatch, _ object: [String: JSONValue]) {
        let integers: [(Int?, String)] = [
            (patch.rounds, "rounds"), (patch.drawTimeSec, "drawTimeSec"), (patch.maxPlayers, "maxPlayers"),
            (patch.wordChoices, "wordChoices"), (patch.hints, "hints"),
        ]
        for (decoded, key) in integers {
            check(decoded == integer(value(object, key)), "settings.\(key): decoded \(String(describing: decoded)), raw \(String(describing: object[key]))")
        }
        same(patch.language, "language", in: object)
        check(patch.customOnly == bool(value(object, "customOnly")), "settings.customOnly: decoded \(String(describing: patch.customOnly)), raw \(String(describing: object["customOnly"]))")
        check(patch.streamer == bool(value(object, "streamer")), "settings.streamer: decoded \(String(describing: patch.streamer)), raw \(String(describing: object["streamer"]))")
        check(patch.mode?.rawValue == string(value(object, "mode")), "settings.mode: decoded \(String(describing: patch.mode)), raw \(String(describing: object["mode"]))")
        check(patch.writeTimeSec == integer(value(object, "writeTimeSec")), "settings.writeTimeSec: decoded \(String(describing: patch.writeTimeSec)), raw \(String(describing: object["writeTimeSec"]))")
        var words: [String]?
        if case .array(let items)? = value(object, "customWords") { words = items.compactMap { string($0) } }
        check(patch.customWords == words, "settings.customWords: decoded \(String(describing: patch.customWords)), raw \(String(describing: object["customWords"]))")
    }

    check(string(raw["t"]) == message.type, "t is \(String(describing: raw["t"])), decoded \(message.type)")
    switch message {
    case let .hello(name, token, avatar):
        same(name, "name")
        same(token, "token")
        if let avatar, case .object(let given)? = value(raw, "avatar") {
            for (key, part) in [("color", avatar.color), ("eyes", avatar.eyes), ("mouth", avatar.mouth), ("accessory", avatar.accessory)] {
                check(integer(given[key]) == part, "avatar.\(key) \(part), raw \(String(describing: given[key]))")
            }
        } else {
            check(avatar == nil, "an avatar decoded from no avatar object")
        }
    case let .create(name, isPublic, settings):
        same(name, "name")
        same(isPublic, "public", default: false)
        compare(settings, settingsObject())
    case let .join(code, watch):
        same(code, "code")
        same(watch, "watch", default: false)
    case let .invite(id), let .kick(id), let .votekick(id): same(id.rawValue, "playerId")
    case let .settings(settings): compare(settings, settingsObject())
    case let .ready(flag): same(flag, "ready", default: true)
    case let .spectate(flag): same(flag, "on", default: true)
    case let .chat(text), let .guess(text): same(text, "text")
    case let .choose(index): check(index == integer(raw["index"]), "index \(index), raw \(String(describing: raw["index"]))")
    case let .rate(rating): check((rating?.rawValue ?? "none") == string(raw["value"]), "rate \(String(describing: rating)), raw \(String(describing: raw["value"]))")
    case let .gallery(listed): check(listed == bool(value(raw, "listed")), "gallery \(listed), raw \(String(describing: raw["listed"]))")
    case let .addBot(level):
        let given = string(value(raw, "level")) ?? BotLevel.normal.rawValue
        check(level.rawValue == given, "addBot level \(level), raw \(String(describing: raw["level"]))")
    case let .removeBot(id): same(id.rawValue, "playerId")
    case let .report(request):
        same(request.reason.rawValue, "reason")
        switch request.target {
        case .drawing(let id):
            check(string(raw["kind"]) == "drawing", "report kind, raw \(String(describing: raw["kind"]))")
            same(id?.rawValue, "drawing")
        case .chat(let from, let text):
            check(string(raw["kind"]) == "chat", "report kind, raw \(String(describing: raw["kind"]))")
            same(from.rawValue, "from")
            same(text, "text")
        }
    case let .phoneSubmit(text): same(text, "text")
    case .rooms, .quickplay, .leave, .start, .skip, .albumNext: break
    }
}
