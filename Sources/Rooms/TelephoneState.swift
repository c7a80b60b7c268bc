import Canvas
import DrawProtocol

/// A telephone game in progress (issue 36): N seats, N steps, N chains. At step k the
/// player in seat p works on chain (p − k) mod N, so each player is handed the previous
/// seat's entry and touches every chain once.
struct TelephoneState: Sendable {
    /// The players seated when the game started, in seat order.
    var seats: [PlayerID]
    var step = 0
    var startedAt: Timestamp
    var deadline: Timestamp
    /// Each chain's entries so far, in step order; chain i starts with seat i.
    var chains: [[AlbumEntry]]
    /// This step's texts (write and describe steps), by player.
    var texts: [PlayerID: String] = [:]
    /// Who submitted in this step.
    var submitted: Set<PlayerID> = []
    /// This step's drawings (draw steps), by player.
    var sketches: [PlayerID: Sketch] = [:]

    var steps: Int { seats.count }
    var kind: PhoneStepKind { Self.kind(ofStep: step) }

    /// Step 0 writes; then draw and describe alternate.
    static func kind(ofStep step: Int) -> PhoneStepKind {
        step == 0 ? .write : (step % 2 == 1 ? .draw : .describe)
    }

    /// The chain the player in `seat` works on at `step`.
    func chain(seat: Int, step: Int) -> Int {
        let n = seats.count
        return ((seat - step) % n + n) % n
    }

    func seat(of id: PlayerID) -> Int? { seats.firstIndex(of: id) }

    /// The entry `id` is handed in this step: the previous step's entry of its chain.
    func handed(to id: PlayerID) -> AlbumEntry? {
        guard step > 0, let seat = seat(of: id) else { return nil }
        let entries = chains[chain(seat: seat, step: step)]
        return entries.count >= step ? entries[step - 1] : nil
    }
}

/// One player's drawing in a draw step: its canvas and the frames that drew it.
struct Sketch: Sendable {
    var drawing: Drawing
    var frames: [StrokeLog.Frame] = []
    var bytes = 0

    init(size: CanvasSize) { drawing = Drawing(size: size) }
}

/// The album shown after a telephone game: every chain, and how far the host has shown it.
struct AlbumState: Sendable {
    var chains: [AlbumChain]
    /// The chain and entry shown last (both from 0); entry -1: the chain's title only.
    var chain = 0
    var entry = -1
    /// Back to the lobby at this time if the host has not finished showing it.
    var deadline: Timestamp
}
