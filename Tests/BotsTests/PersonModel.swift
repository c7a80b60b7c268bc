import DrawProtocol
import Rooms

/// A simulated attentive person (issue 39, item 12): the yardstick bot levels are tuned
/// against. As a guesser it recognises a bot's drawing after a share of the draw time
/// (it reads the word from the room, as a person reads the drawing) and now and then does
/// not get it at all; as a drawer it draws strokes no bot knows (a person's own drawing),
/// so bots can guess its word only from the mask, the hints and others' guesses.
struct PersonModel: Sendable {
    /// When it types the word, as a share of the draw time since the turn began.
    var recognises: ClosedRange<Double> = 0.25...0.55
    /// Chance of not getting a drawing at all.
    var missRate = 0.15
    /// Share of the draw time its own drawing takes.
    var drawShare = 0.6

    static let attentive = PersonModel()
}
