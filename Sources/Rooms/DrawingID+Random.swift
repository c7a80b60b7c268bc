import DrawProtocol

extension DrawingID {
    /// A fresh id from `random` (the system generator in production).
    public static func random(using random: inout RandomSource) -> DrawingID {
        DrawingID(trusted: random.string(count: length, from: alphabet))
    }
}
