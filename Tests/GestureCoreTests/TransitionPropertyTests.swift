import Testing
@testable import GestureCore

/// Deterministic pseudo-random numbers (SplitMix64), so a failing seed can be replayed.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite("State machine")
struct TransitionPropertyTests {
    static let configuration: EngineConfiguration = {
        var recognizers = [
            tap("single", requireToFail: ["double"]),
            tap("double", taps: 2),
            tap("two", fingers: 2),
            tap("ctap", region: "C", delaysBegan: true),
            spec("press", .longPress),
            spec("tapPress", .longPress) { $0.taps = 2 },
            spec("pan", .pan, simultaneousWith: ["pinch"]) { $0.minimumFingers = 2 },
            spec("pinch", .pinch, simultaneousWith: ["rotate"]),
            spec("rotate", .rotation),
            spec("swipe", .swipe, requireToFail: ["press"]) { $0.directions = [.left, .right] },
            spec("swipe3", .swipe) { $0.fingers = 3; $0.directions = [.up, .down] },
            spec("edge", .edgePan) { $0.edges = [.left, .bottom] },
        ]
        recognizers[3].cancelsTouches = false
        return pc(recognizers)
    }()

    @Test("only legal transitions over random frame sequences; every recognizer back to possible")
    func randomSequences() {
        let kinds = Dictionary(uniqueKeysWithValues: Self.configuration.recognizers.map { ($0.id, $0.kind) })
        var totalTransitions = 0
        for seed in 1...300 {
            var rng = SplitMix(state: UInt64(seed))
            var s = Scenario(Self.configuration)
            var t = 0.0
            var down: [Int: (Double, Double)] = [:]
            var nextFinger = 1
            for _ in 0..<Int.random(in: 5...60, using: &rng) {
                t += Double(Int.random(in: 1...150, using: &rng)) + (Int.random(in: 0..<8, using: &rng) == 0 ? 400 : 0)
                let roll = Int.random(in: 0..<100, using: &rng)
                if roll < 25 && down.count < 5 {
                    let p = (Double.random(in: 0...100, using: &rng), Double.random(in: 0...100, using: &rng))
                    down[nextFinger] = p
                    s.frame(t, .down(nextFinger, p.0, p.1))
                    nextFinger += 1
                } else if roll < 70, !down.isEmpty {
                    var changes: [Scenario.Change] = []
                    let scale = [0.8, 4, 12].randomElement(using: &rng)!
                    let drift = (Double.random(in: -scale...scale, using: &rng), Double.random(in: -scale...scale, using: &rng))
                    for (f, p) in down where Bool.random(using: &rng) {
                        // Fingers drift together (pans, swipes) with a little noise of their own.
                        let q = (min(100, max(0, p.0 + drift.0 + Double.random(in: -1...1, using: &rng))),
                                 min(100, max(0, p.1 + drift.1 + Double.random(in: -1...1, using: &rng))))
                        down[f] = q
                        changes.append(.move(f, q.0, q.1))
                    }
                    s.frame(t, changes)
                } else if roll < 90, let f = down.keys.randomElement(using: &rng) {
                    down[f] = nil
                    s.frame(t, .up(f))
                } else if roll < 93, !down.isEmpty {
                    s.frame(t, down.keys.map { .cancel($0) })
                    down = [:]
                } else {
                    s.advance(t)
                }
            }
            t += 10
            s.frame(t, down.keys.map { .up($0) })
            s.finish()

            #expect(s.engine.illegalTransitions == 0, "seed \(seed)")
            #expect(s.settled, "seed \(seed): \(s.engine.recognizerStates)")
            #expect(s.engine.nextDeadline == nil, "seed \(seed)")
            // Every explained transition is legal and continues from the previous state.
            var state: [String: GestureState] = [:]
            for e in s.explanations {
                // "received touch" lines report delivery, not a transition; they repeat the current state.
                // So do notes (from == to): a touchpad deciding again, a pinch not considered.
                if e.reason.hasPrefix("received touch") || e.from == e.to {
                    #expect(e.from == e.to && e.from == state[e.gesture, default: .possible], "seed \(seed)")
                    continue
                }
                let discrete = kinds[e.gesture]!.isDiscrete
                #expect(RecognizerStateMachine.isLegal(from: e.from, to: e.to, discrete: discrete),
                        "seed \(seed): \(e.gesture) \(e.from) -> \(e.to)")
                #expect(e.from == state[e.gesture, default: .possible], "seed \(seed): \(e.gesture)")
                state[e.gesture] = e.to
                totalTransitions += 1
            }
            // Published events of one gesture: recognized alone, or began changed* (ended|cancelled).
            for id in kinds.keys {
                var open = false
                for g in s.events(id) {
                    switch g.state {
                    case .recognized: #expect(!open && kinds[id]!.isDiscrete, "seed \(seed)")
                    case .began: #expect(!open, "seed \(seed)"); open = true
                    case .changed: #expect(open, "seed \(seed)")
                    case .ended, .cancelled: #expect(open, "seed \(seed)"); open = false
                    default: Issue.record("unpublished state \(g.state)")
                    }
                }
                #expect(!open, "seed \(seed): \(id) never ended")
            }
            // Touch streams: began first, exactly one ended or cancelled last.
            var streams: [TouchID: [TouchPhase]] = [:]
            for e in s.touchEvents("C") { streams[e.id, default: []].append(e.phase) }
            for (id, phases) in streams {
                #expect(phases.first == .began, "seed \(seed) touch \(id): \(phases)")
                #expect(phases.last?.isTerminal == true, "seed \(seed) touch \(id): \(phases)")
                #expect(phases.filter(\.isTerminal).count == 1, "seed \(seed) touch \(id): \(phases)")
            }
            // Events come out in time order.
            var last = Timestamp.zero
            for o in s.outputs {
                let time: Timestamp = switch o {
                case .gesture(let g): g.time
                case .touch(let e): e.time
                case .explain(let e): e.time
                case .forwarding(let f): f.time
                }
                #expect(time >= last, "seed \(seed)")
                last = time
            }
        }
        #expect(totalTransitions > 1000)
    }

    @Test("the transition table allows exactly the UIKit transitions")
    func table() {
        let all = GestureState.allCases
        var discrete: Set<String> = []
        var continuous: Set<String> = []
        for a in all {
            for b in all {
                if RecognizerStateMachine.isLegal(from: a, to: b, discrete: true) { discrete.insert("\(a)>\(b)") }
                if RecognizerStateMachine.isLegal(from: a, to: b, discrete: false) { continuous.insert("\(a)>\(b)") }
            }
        }
        #expect(discrete == ["possible>recognized", "possible>failed", "recognized>possible", "failed>possible"])
        #expect(continuous == ["possible>began", "possible>failed", "began>changed", "changed>changed", "began>ended",
                               "changed>ended", "began>cancelled", "changed>cancelled", "failed>possible",
                               "ended>possible", "cancelled>possible"])
        #expect(RecognizerStateMachine.transition(from: .possible, on: .begin, discrete: true) == nil)
        #expect(RecognizerStateMachine.transition(from: .recognized, on: .fail, discrete: true) == nil)
        #expect(RecognizerStateMachine.transition(from: .possible, on: .reset, discrete: false) == nil)
    }
}
