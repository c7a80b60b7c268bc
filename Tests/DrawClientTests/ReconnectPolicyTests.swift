import DrawClient
import Testing

/// The backoff policy on virtual time: no clock, no sockets.
@Suite struct ReconnectPolicyTests {
    private func configuration(jitter: Double = 0) -> ReconnectPolicy.Configuration {
        var configuration = ReconnectPolicy.Configuration()
        configuration.initialDelay = .milliseconds(100)
        configuration.multiplier = 2
        configuration.maxDelay = .seconds(1)
        configuration.jitter = jitter
        configuration.stableAfter = .seconds(5)
        return configuration
    }

    @Test func failedAttemptsBackOffExponentiallyUpToTheCap() {
        var policy = ReconnectPolicy(configuration: configuration())
        var now = Duration.zero
        #expect(policy.start(now: now) == [.connect(attempt: 1)])
        var waits: [Duration] = []
        for attempt in 2...7 {
            let actions = policy.connectFailed(now: now)
            guard case .wait(let delay) = actions.first, actions.count == 1 else {
                Issue.record("expected one wait, got \(actions)")
                return
            }
            waits.append(delay)
            // Early timer: nothing happens.
            #expect(policy.timerFired(now: now + delay - .milliseconds(1)).isEmpty)
            now += delay
            #expect(policy.timerFired(now: now) == [.connect(attempt: attempt)])
        }
        #expect(waits == [.milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(800), .seconds(1), .seconds(1)])
    }

    @Test func aConnectionThatHeldResetsTheBackoffOneThatDroppedAtOnceDoesNot() {
        var policy = ReconnectPolicy(configuration: configuration())
        _ = policy.start(now: .zero)
        #expect(policy.opened(now: .zero) == [.sayHello])
        // Held 10 s (more than stableAfter): the first retry waits the initial delay.
        #expect(policy.closed(.serviceRestart, now: .seconds(10)) == [.wait(.milliseconds(100))])
        #expect(policy.timerFired(now: .seconds(11)) == [.connect(attempt: 2)])
        #expect(policy.opened(now: .seconds(11)) == [.sayHello])
        // Dropped after 1 s: counts as a second failure.
        #expect(policy.closed(.abnormalClosure, now: .seconds(12)) == [.wait(.milliseconds(200))])
        #expect(policy.failures == 2)
    }

    @Test func replacedAndPolicyClosesStopWhileRestartAndOverflowRetry() {
        for code in [CloseCode.replaced, .policyViolation, .messageTooBig] {
            var policy = ReconnectPolicy(configuration: configuration())
            _ = policy.start(now: .zero)
            _ = policy.opened(now: .zero)
            #expect(policy.closed(code, now: .seconds(1)) == [.stop(.closed(code))])
            #expect(policy.phase == .stopped(.closed(code)))
            #expect(policy.timerFired(now: .seconds(100)).isEmpty)
        }
        for code in [CloseCode.serviceRestart, .tooSlowToRead, .abnormalClosure, .noHello, .goingAway] {
            var policy = ReconnectPolicy(configuration: configuration())
            _ = policy.start(now: .zero)
            _ = policy.opened(now: .zero)
            #expect(policy.closed(code, now: .seconds(1)) == [.wait(.milliseconds(100))], "\(code)")
        }
    }

    @Test func givesUpAfterMaxAttempts() {
        var configuration = configuration()
        configuration.maxAttempts = 3
        var policy = ReconnectPolicy(configuration: configuration)
        var now = Duration.zero
        _ = policy.start(now: now)
        for _ in 1...2 {
            guard case .wait(let delay) = policy.connectFailed(now: now).first else {
                Issue.record("expected a wait")
                return
            }
            now += delay
            _ = policy.timerFired(now: now)
        }
        #expect(policy.connectFailed(now: now) == [.stop(.gaveUp(attempts: 3))])
    }

    @Test func jitterStaysWithinItsBandAndIsDeterministicPerSeed() {
        var delays: Set<Duration> = []
        for seed in UInt64(1)...50 {
            var policy = ReconnectPolicy(configuration: configuration(jitter: 0.2), seed: seed)
            _ = policy.start(now: .zero)
            guard case .wait(let delay) = policy.connectFailed(now: .zero).first else {
                Issue.record("expected a wait")
                return
            }
            #expect(delay >= .milliseconds(80) && delay <= .milliseconds(120), "\(delay)")
            delays.insert(delay)
            var again = ReconnectPolicy(configuration: configuration(jitter: 0.2), seed: seed)
            _ = again.start(now: .zero)
            #expect(again.connectFailed(now: .zero) == [.wait(delay)])
        }
        // Clients cut off together spread out.
        #expect(delays.count > 40)
    }

    @Test func stopClosesAnOpenConnectionAndIgnoresLaterEvents() {
        var policy = ReconnectPolicy(configuration: configuration())
        _ = policy.start(now: .zero)
        _ = policy.opened(now: .zero)
        #expect(policy.stop() == [.close(.normalClosure), .stop(.requested)])
        #expect(policy.closed(.normalClosure, now: .seconds(1)).isEmpty)
        #expect(policy.stop().isEmpty)
    }
}
