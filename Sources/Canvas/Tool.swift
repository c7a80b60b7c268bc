/// The drawing tool of a stroke; raw values are the wire encoding of BEGIN's `tool` byte.
public enum Tool: UInt8, Sendable {
    case pen = 0
    /// Paints white whatever colour the stroke carries.
    case eraser = 1
}
