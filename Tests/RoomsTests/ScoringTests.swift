import DrawProtocol
import Testing
import Rooms

struct ScoringTests {
    @Test func workedExamplesFromGameDoc() {
        // Instant first guess of four: 50 + 350 + 100.
        #expect(Scoring.guesserPoints(elapsedMs: 0, drawTimeMs: 80_000, guessOrder: 0, guesserCount: 4) == 500)
        // 20 s into 80 s, first of four: 50 + 262 + 100.
        #expect(Scoring.guesserPoints(elapsedMs: 20_000, drawTimeMs: 80_000, guessOrder: 0, guesserCount: 4) == 412)
        // 40 s, second of four: 50 + 175 + 75.
        #expect(Scoring.guesserPoints(elapsedMs: 40_000, drawTimeMs: 80_000, guessOrder: 1, guesserCount: 4) == 300)
        // 70 s, third of four: 50 + 43 + 50.
        #expect(Scoring.guesserPoints(elapsedMs: 70_000, drawTimeMs: 80_000, guessOrder: 2, guesserCount: 4) == 143)
        // At the buzzer, last of four: 50 + 0 + 25.
        #expect(Scoring.guesserPoints(elapsedMs: 80_000, drawTimeMs: 80_000, guessOrder: 3, guesserCount: 4) == 75)
        // Drawer: (412 + 300 + 143) / (2 * 4).
        #expect(Scoring.drawerPoints(guesserPoints: [412, 300, 143], guesserCount: 4) == 106)
        #expect(Scoring.drawerPoints(guesserPoints: [500, 500, 500, 500], guesserCount: 4) == 250)
    }

    @Test func guesserPointsFallWithTime() {
        for count in 1...8 {
            for order in 0..<count {
                var previous = Int.max
                for elapsed in stride(from: 0, through: 100_000, by: 500) {
                    let points = Scoring.guesserPoints(
                        elapsedMs: elapsed, drawTimeMs: 80_000, guessOrder: order, guesserCount: count)
                    #expect(points <= previous)
                    #expect(points >= Scoring.minimumGuesserPoints)
                    #expect(points <= Scoring.maximumGuesserPoints)
                    previous = points
                }
            }
        }
    }

    @Test func guesserPointsFallWithOrder() {
        for count in 1...16 {
            var previous = Int.max
            for order in 0..<count {
                let points = Scoring.guesserPoints(elapsedMs: 30_000, drawTimeMs: 80_000, guessOrder: order, guesserCount: count)
                #expect(points < previous)
                previous = points
            }
        }
    }

    @Test func alwaysAtLeastFiftyEvenOnOddInput() {
        let inputs: [(Int, Int, Int, Int)] = [
            (-1_000, 80_000, 0, 3), (1_000_000, 80_000, 2, 3), (0, 0, 0, 0), (10, -10, -1, -1),
            (Int.max, Int.max, Int.max - 1, 1), (Int.min, 80_000, 5, 2), (5_000, 80_000, 9, 3),
        ]
        for (elapsed, drawTime, order, count) in inputs {
            let points = Scoring.guesserPoints(elapsedMs: elapsed, drawTimeMs: drawTime, guessOrder: order, guesserCount: count)
            #expect((50...500).contains(points), "\(elapsed) \(drawTime) \(order) \(count) -> \(points)")
        }
    }

    @Test func drawerEarnsNothingWhenNobodyGuessed() {
        #expect(Scoring.drawerPoints(guesserPoints: [], guesserCount: 5) == 0)
        #expect(Scoring.drawerPoints(guesserPoints: [], guesserCount: 0) == 0)
    }

    @Test func drawerEarnsMoreWhenMoreGuess() {
        let one = Scoring.drawerPoints(guesserPoints: [300], guesserCount: 4)
        let two = Scoring.drawerPoints(guesserPoints: [300, 300], guesserCount: 4)
        let all = Scoring.drawerPoints(guesserPoints: [300, 300, 300, 300], guesserCount: 4)
        #expect(one == 37 && two == 75 && all == 150)
        // A stale guesser count lower than the number who guessed is raised.
        #expect(Scoring.drawerPoints(guesserPoints: [400, 400], guesserCount: 1) == 200)
        #expect(Scoring.drawerPoints(guesserPoints: [-5, Int.max], guesserCount: 2) == 125)
    }
}
