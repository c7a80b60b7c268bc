/// A player's avatar (docs/PROTOCOL.md section 8.2); the server only stores and echoes it.
public struct PlayerAvatar: Sendable, Hashable {
    public var color: Int
    public var eyes: Int
    public var mouth: Int
    public var accessory: Int

    public init(color: Int, eyes: Int, mouth: Int, accessory: Int = 0) {
        self.color = color
        self.eyes = eyes
        self.mouth = mouth
        self.accessory = accessory
    }

    init?(_ json: WireJSON?) {
        guard let color = json?["color"]?.intValue, let eyes = json?["eyes"]?.intValue,
              let mouth = json?["mouth"]?.intValue, let accessory = json?["accessory"]?.intValue
        else { return nil }
        self.init(color: color, eyes: eyes, mouth: mouth, accessory: accessory)
    }

    var json: WireJSON {
        ["color": .number(Double(color)), "eyes": .number(Double(eyes)),
         "mouth": .number(Double(mouth)), "accessory": .number(Double(accessory))]
    }
}
