import Foundation
import Testing
@testable import GestureCore

/// No recognizer waits for one that waits for it (issue 49 item 5; docs/recognizers.md,
/// "Arbitration"): over generated configs (recognizers of every kind, `require-to-fail` and
/// `simultaneous-with` among them), regions a client attaches (they keep their gestures), window rules
/// over a desktop, on touchscreens and touchpads, no frame has a cycle of waits (`waitCycle`), no held
/// success is given up at a sequence's end because of one (`waitCycles`), and every recognizer is back
/// in possible. Seeded: a failing seed replays.
@Suite("Wait invariant")
struct WaitInvariantTests {
    static let kinds: [RecognizerKind] = [.tap, .longPress, .pan, .pinch, .rotation, .swipe, .edgePan]

    /// `count` recognizers named `prefix0…` on `region`, waits only on earlier ones (the config loader
    /// refuses cycles of `require-to-fail`), a few pairs simultaneous.
    static func recognizers(_ prefix: String, region: String, count: Int, _ rng: inout SplitMix) -> [RecognizerSpec] {
        var out: [RecognizerSpec] = []
        for i in 0..<count {
            let kind = kinds.randomElement(using: &rng)!
            var p = RecognizerParameters()
            switch kind {
            case .tap: p.fingers = Int.random(in: 1...3, using: &rng); p.taps = Int.random(in: 1...2, using: &rng)
            case .longPress: p.fingers = Int.random(in: 1...2, using: &rng)
            case .pan:
                p.minimumFingers = Int.random(in: 1...2, using: &rng)
                p.maximumFingers = p.minimumFingers + Int.random(in: 0...1, using: &rng)
            case .swipe: p.fingers = Int.random(in: 1...3, using: &rng); p.directions = [.left, .right, .up, .down]
            case .edgePan: p.edges = [.left, .right, .top, .bottom]
            case .pinch, .rotation: break
            }
            var requires: [String] = []
            var together: [String] = []
            for j in 0..<i {
                let roll = Int.random(in: 0..<10, using: &rng)
                if roll == 0 { requires.append("\(prefix)\(j)") } else if roll == 1 { together.append("\(prefix)\(j)") }
            }
            out.append(RecognizerSpec(id: "\(prefix)\(i)", kind: kind, region: region, parameters: p,
                                      requireToFail: requires, simultaneousWith: together))
        }
        return out
    }

    @Test("no cycle of waits over generated configs, attached regions and window rules")
    func generated() throws {
        var frames = 0, held = 0
        for seed in 1...240 {
            var rng = SplitMix(state: UInt64(seed) &* 7919)
            let screen = Self.recognizers("s", region: "screen", count: Int.random(in: 2...7, using: &rng), &rng)
            var configuration = EngineConfiguration(root: RegionSpec(id: "screen"), recognizers: screen)
            let withWindows = seed % 3 != 0
            if withWindows {
                configuration.windowRules = [WindowRule(id: "rule", match: WindowMatch(app: "app"),
                                                        disable: seed % 5 == 0 ? ["s0"] : [],
                                                        gestures: Self.recognizers("w", region: "", count: Int.random(in: 1...4, using: &rng), &rng))]
            }
            var s = Scenario(configuration)
            if seed % 2 == 0 { s.device = DeviceRef(id: 1, name: "pad", kind: .touchpad) }
            if withWindows {
                let desktop = Desktop(outputs: [DesktopOutput(name: "O", width: 100, height: 100)],
                                      windows: [DesktopWindow(id: "1", app: "app", output: "O", x: 0, y: 0, width: 60, height: 100,
                                                              stack: 1, focused: true),
                                                DesktopWindow(id: "2", app: "other", output: "O", x: 60, y: 0, width: 40, height: 100,
                                                              stack: 2)])
                _ = s.engine.setDesktop(desktop, at: .zero)
            }
            if seed % 4 != 3 {
                // A client's region, over part or all of the surface, with gestures of its own.
                let full = Bool.random(using: &rng)
                let frame = full ? RegionFrame.full
                    : RegionFrame(x: .absolute(30), y: .absolute(0), width: .absolute(70), height: .absolute(100))
                try s.engine.attach(RegionSpec(id: "app", frame: frame), under: "screen",
                                    recognizers: Self.recognizers("a", region: "app", count: Int.random(in: 1...3, using: &rng), &rng))
            }
            var t = 0.0
            var down: [Int: (Double, Double)] = [:]
            var nextFinger = 1
            for _ in 0..<Int.random(in: 10...60, using: &rng) {
                t += Double(Int.random(in: 1...60, using: &rng)) + (Int.random(in: 0..<10, using: &rng) == 0 ? 400 : 0)
                let roll = Int.random(in: 0..<100, using: &rng)
                if roll < 22 && down.count < 4 {
                    let p = (Double.random(in: 0...100, using: &rng), Double.random(in: 0...100, using: &rng))
                    down[nextFinger] = p
                    s.frame(t, .down(nextFinger, p.0, p.1))
                    nextFinger += 1
                } else if roll < 80, !down.isEmpty {
                    // Together, apart, turning: scrolls, zooms and twists, and every mix of them.
                    let shape = Int.random(in: 0..<3, using: &rng)
                    let step = [0.7, 3, 8].randomElement(using: &rng)!
                    let d = (Double.random(in: -step...step, using: &rng), Double.random(in: -step...step, using: &rng))
                    let c = (down.values.map(\.0).reduce(0, +) / Double(down.count), down.values.map(\.1).reduce(0, +) / Double(down.count))
                    var changes: [Scenario.Change] = []
                    for (f, p) in down {
                        let r = (p.0 - c.0, p.1 - c.1)
                        let q = switch shape {
                        case 0: (p.0 + d.0, p.1 + d.1)
                        case 1: (p.0 + r.0 * step / 20, p.1 + r.1 * step / 20)
                        default: (p.0 - r.1 * step / 20 + r.0 * step / 60, p.1 + r.0 * step / 20 + r.1 * step / 60)
                        }
                        let clamped = (min(100, max(0, q.0)), min(100, max(0, q.1)))
                        down[f] = clamped
                        changes.append(.move(f, clamped.0, clamped.1))
                    }
                    s.frame(t, changes)
                } else if roll < 95, let f = down.keys.randomElement(using: &rng) {
                    down[f] = nil
                    s.frame(t, .up(f))
                } else {
                    s.advance(t)
                }
                frames += 1
                if let cycle = s.engine.waitCycle() {
                    Issue.record("seed \(seed) at \(t) ms: a cycle of waits \(cycle)")
                    break
                }
                held += s.engine.lanes.reduce(0) { n, lane in n + lane.slots.filter { $0.pending != nil }.count }
            }
            t += 10
            s.frame(t, down.keys.map { .up($0) })
            s.finish()
            #expect(s.engine.waitCycles == 0, "seed \(seed)")
            #expect(s.engine.illegalTransitions == 0, "seed \(seed)")
            #expect(s.engine.recognizerStates.allSatisfy { $0 == .possible }, "seed \(seed): \(s.engine.recognizerStates)")
        }
        // The generator reaches held successes (the waits the invariant is about) often.
        #expect(frames > 5000 && held > 200, "frames \(frames), held \(held)")
    }

    /// The case that had the cycle: a client's full-screen pinch under a screen rotation. The screen's
    /// rotation waits for the kept pinch; the pinch must not count the rotation as its rival.
    @Test func aKeptPinchAndTheScreensRotationMakeNoCycle() throws {
        var s = Scenario(EngineConfiguration(root: RegionSpec(id: "screen"),
                                             recognizers: [spec("rotate", .rotation, region: "screen")]))
        try s.engine.attach(RegionSpec(id: "map"), under: "screen", recognizers: [spec("zoom", .pinch, region: "map")])
        s.frame(0, .down(1, 35, 50), .down(2, 65, 50))
        var cycles: [[String]] = []
        for i in 1...50 {
            let fraction = Double(i) / 50
            let span = 30 * (1 + 0.5 * fraction), a = (30 * fraction) * Double.pi / 180
            s.frame(Double(i) * 10, .move(1, 50 - cos(a) * span / 2, 50 - sin(a) * span / 2),
                    .move(2, 50 + cos(a) * span / 2, 50 + sin(a) * span / 2))
            if let cycle = s.engine.waitCycle() { cycles.append(cycle) }
        }
        #expect(cycles.isEmpty, "\(cycles.prefix(2))")
        #expect(s.events("zoom").first?.state == .began)
        s.frame(510, .up(1), .up(2))
        s.finish()
    }
}
