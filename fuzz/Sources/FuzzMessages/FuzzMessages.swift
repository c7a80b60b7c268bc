import Foundation
import Rooms

/// libFuzzer target for the JSON client message decoder (protocol sections 2 and 3): the
/// whole input is one text frame as the server receives it.
///
/// Invariants checked (any violation traps, which libFuzzer reports as a crash):
/// 1. `ClientMessage.decode` never crashes and is deterministic.
/// 2. A decoded message's type is one of the protocol's, and equals the frame's `"t"`.
/// 3. A failure is `bad_json` (with `ref` ""), `bad_message` or `too_large`; when the frame
///    is an object with a string `"t"`, `ref` is that `t` unless `"t"` itself was missing.
/// 4. A decoded message written back as JSON decodes to the same message.
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
    "start", "kick", "votekick", "spectate", "chat", "guess", "choose", "skip",
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
    case let .hello(name, token):
        fields["name"] = name
        if let token { fields["token"] = token }
    case let .create(name, isPublic, settings):
        if let name { fields["name"] = name }
        fields["public"] = isPublic
        fields["settings"] = encode(settings)
    case let .join(code): fields["code"] = code
    case let .invite(id), let .kick(id), let .votekick(id): fields["playerId"] = id.rawValue
    case let .settings(settings): fields["settings"] = encode(settings)
    case let .ready(flag): fields["ready"] = flag
    case let .spectate(flag): fields["on"] = flag
    case let .chat(text), let .guess(text): fields["text"] = text
    case let .choose(index): fields["index"] = index
    case .rooms, .quickplay, .leave, .start, .skip: break
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
    return fields
}
