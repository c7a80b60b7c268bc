import DrawProtocol
import Rooms

/// Guessing: candidates from the mask, hints, others' wrong guesses, `close`, and slips.
extension BotBrain {
    mutating func hintArrived(_ mask: String) {
        guard case .guessing(var plan) = turn else { return }
        plan.mask = mask
        plan.candidates = plan.candidates.filter { MaskPattern.fits($0, mask: mask) }
        if let r = plan.recognised, !MaskPattern.fits(r, mask: mask) { plan.recognised = nil }
        turn = .guessing(plan)
    }

    /// Its guess was one edit away: the word is one of the candidates that close to it.
    mutating func closeGuess(_ text: String, now: Timestamp) {
        guard case .guessing(var plan) = turn else { return }
        let near = plan.candidates.filter { MaskPattern.distance($0, text, limit: 1) <= 1 && !plan.tried.contains(GuessNormalizer.normalize($0)) }
        if !near.isEmpty { plan.candidates = near }
        turn = .guessing(plan)
        sayMaybe(.nearMiss, now: now, delay: 500...1_200, chance: 0.3)
    }

    /// Another player's chat during the turn was a wrong guess (right ones are never shown).
    mutating func othersGuessed(_ text: String) {
        guard case .guessing(var plan) = turn else { return }
        plan.tried.insert(GuessNormalizer.normalize(text))
        turn = .guessing(plan)
    }

    /// The next guess, or nil to keep watching.
    mutating func nextGuess(_ plan: inout GuessPlan) -> String? {
        let open = plan.candidates.filter { !plan.tried.contains(GuessNormalizer.normalize($0)) }
        if let known = plan.recognised, !plan.tried.contains(GuessNormalizer.normalize(known)),
           Double.random(in: 0..<1, using: &rng) < style.recognition {
            return slip(known)
        }
        guard !open.isEmpty else { return nil }
        // Many words fit: a person would wait for hints, and so does a bot mostly.
        if open.count > style.maxCandidatesToTry, Double.random(in: 0..<1, using: &rng) > 0.25 { return nil }
        return slip(open[rng.uniformIndex(below: open.count)])
    }

    /// Sometimes a slip of the keyboard: two letters swapped or one dropped.
    mutating func slip(_ word: String) -> String {
        guard Double.random(in: 0..<1, using: &rng) < style.mistakeRate else { return word }
        var letters = Array(word)
        guard letters.count >= 4 else { return word + word.suffix(1) }
        let i = 1 + rng.uniformIndex(below: letters.count - 2)
        if Double.random(in: 0..<1, using: &rng) < 0.5 {
            letters.swapAt(i, i + 1)
        } else {
            letters.remove(at: i)
        }
        return String(letters)
    }
}
