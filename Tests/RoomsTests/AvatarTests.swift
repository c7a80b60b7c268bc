import DrawProtocol
import Testing
@testable import Rooms

@Suite("Avatar validation")
struct AvatarTests {
    func hello(_ json: String) -> Result<ClientMessage, ProtocolError> { ClientMessage.decode(Array(json.utf8)) }

    @Test func aValidAvatarIsTakenAsSent() throws {
        let message = try hello(#"{"t":"hello","name":"Ada","avatar":{"color":11,"eyes":5,"mouth":5,"accessory":6}}"#).get()
        #expect(message == .hello(name: "Ada", token: nil, avatar: Avatar(color: 11, eyes: 5, mouth: 5, accessory: 6)))
        #expect(try hello(#"{"t":"hello","name":"Ada","avatar":null}"#).get() == .hello(name: "Ada", token: nil, avatar: nil))
        #expect(try hello(#"{"t":"hello","name":"Ada","avatar":{"color":0,"eyes":0,"mouth":0,"accessory":0}}"#).get()
            == .hello(name: "Ada", token: nil, avatar: Avatar(color: 0, eyes: 0, mouth: 0, accessory: 0)))
    }

    @Test(arguments: [
        #"{"color":12,"eyes":0,"mouth":0,"accessory":0}"#,
        #"{"color":0,"eyes":6,"mouth":0,"accessory":0}"#,
        #"{"color":0,"eyes":0,"mouth":6,"accessory":0}"#,
        #"{"color":0,"eyes":0,"mouth":0,"accessory":7}"#,
        #"{"color":-1,"eyes":0,"mouth":0,"accessory":0}"#,
        #"{"color":1.5,"eyes":0,"mouth":0,"accessory":0}"#,
        #"{"color":"1","eyes":0,"mouth":0,"accessory":0}"#,
        #"{"eyes":0,"mouth":0,"accessory":0}"#,
        #"{"color":0,"eyes":0,"mouth":0,"accessory":0,"hat":"<svg onload=alert(1)>"}"#,
        #"{}"#,
        #""red""#,
        #"[1,2,3,4]"#,
    ])
    func anythingElseIsABadMessageAboutHello(avatar: String) {
        let result = hello(#"{"t":"hello","name":"Ada","avatar":"# + avatar + "}")
        guard case .failure(let error) = result else {
            Issue.record("accepted \(avatar)")
            return
        }
        #expect(error.code == .badMessage)
        #expect(error.ref == "hello")
    }

    @Test func theStandardAvatarIsDerivedFromTheIdAndInRange() {
        var seen = Set<Avatar>()
        for i in 0..<500 {
            let id = PlayerID("player\(i)")
            let avatar = Avatar.standard(for: id)
            #expect(avatar == Avatar.standard(for: id))
            #expect(Avatar(color: avatar.color, eyes: avatar.eyes, mouth: avatar.mouth, accessory: avatar.accessory) == avatar)
            seen.insert(avatar)
        }
        #expect(seen.count > 100, "ids spread over the parts")
    }

    @Test func aRateMessageTakesLikeDislikeOrNone() throws {
        #expect(try ClientMessage.decode(Array(#"{"t":"rate","value":"like"}"#.utf8)).get() == .rate(.like))
        #expect(try ClientMessage.decode(Array(#"{"t":"rate","value":"dislike"}"#.utf8)).get() == .rate(.dislike))
        #expect(try ClientMessage.decode(Array(#"{"t":"rate","value":"none"}"#.utf8)).get() == .rate(nil))
        for bad in [#"{"t":"rate","value":"love"}"#, #"{"t":"rate"}"#, #"{"t":"rate","value":1}"#, #"{"t":"rate","value":null}"#] {
            guard case .failure(let error) = ClientMessage.decode(Array(bad.utf8)) else {
                Issue.record("accepted \(bad)")
                continue
            }
            #expect(error.code == .badMessage && error.ref == "rate")
        }
    }
}
