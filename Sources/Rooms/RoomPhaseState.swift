import Canvas
import DrawProtocol

/// The state that exists only in one phase; the phase itself is derived from it.
enum RoomPhaseState: Sendable {
    case lobby
    case choosing(ChoosingState)
    case drawing(DrawingTurn)
    /// `word`: the turn's word (nil only in a room restored from an older snapshot).
    case turnEnd(deadline: Timestamp, word: String?)
    case gameEnd(deadline: Timestamp)
    /// Telephone mode: the steps.
    case telephone(TelephoneState)
    /// Telephone mode: the album, after the last step.
    case album(AlbumState)

    var phase: GamePhase {
        switch self {
        case .lobby: .lobby
        case .choosing: .choosing
        case .drawing: .drawing
        case .turnEnd: .turnEnd
        case .gameEnd: .gameEnd
        case .telephone: .telephone
        case .album: .album
        }
    }
}

struct ChoosingState: Sendable {
    var drawer: PlayerID
    var words: [String]
    var deadline: Timestamp
}

/// One drawing turn: the word, its mask and hints, and who guessed when.
struct DrawingTurn: Sendable {
    var drawer: PlayerID
    var judge: WordJudge
    var mask: WordMask
    var startedAt: Timestamp
    var deadline: Timestamp
    /// Reveal times still to come, as offsets from `startedAt`.
    var pendingHints: [Int]
    /// Guessers in the order they guessed, with the points each earned.
    var guesses: [(id: PlayerID, points: Int)] = []
    var word: String { judge.word }
}

/// Progress through one game: rounds, the drawers still due this round, the word bag.
struct GameProgress: Sendable {
    var number: Int
    var round = 1
    var turn = 0
    var pendingDrawers: [PlayerID]
    var bag: WordBag
    /// Words drawn in this game since every word was last used, as drawn: none of them is
    /// offered again while the bag holds a word not among them.
    var usedWords: [String] = []

    /// Whether `word` (in any spelling that judges the same) was drawn in this cycle.
    func isUsed(_ word: String) -> Bool {
        guard !usedWords.isEmpty else { return false }
        let key = GuessNormalizer.normalize(word)
        return usedWords.contains { GuessNormalizer.normalize($0) == key }
    }
}
