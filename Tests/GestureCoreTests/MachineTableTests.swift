import Foundation
import Testing
@testable import GestureCore

/// Each recognizer's transition table (the comment of its file) is its code's: under a seeded fuzzer
/// that drives touchscreens and clickpads (landings, jumps, clicks, rests, twists, spreads), every
/// state-machine step taken is a row of the table, and every row of the table is taken.
@Suite("Recognizer transition tables")
struct MachineTableTests {
    /// A kind's files: `<Kind>Recognizer.swift` (`edge-pan`: EdgePanRecognizer.swift), except a swipe,
    /// which has two state machines, UIKit's discrete one and the continuous one.
    static func files(_ kind: RecognizerKind) -> [String] {
        switch kind {
        case .swipe: return ["SwipeRecognizer.swift", "ContinuousSwipeRecognizer.swift"]
        default:
            let words = kind.rawValue.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }
            return [words.joined() + "Recognizer.swift"]
        }
    }

    struct Row: Hashable, CustomStringConvertible {
        var from, event, to: String
        var description: String { "\(from) --\(event)--> \(to)" }
    }

    /// The `| from | event | to | … |` rows of a recognizer file's doc comment.
    static func table(_ kind: RecognizerKind) throws -> Set<Row> {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/GestureCore/Engine/Recognizers")
        var text = ""
        for file in files(kind) {
            let url = folder.appendingPathComponent(file)
            let contents = try? String(contentsOf: url, encoding: .utf8)
            try #require(contents != nil, """
                recognizer kind '\(kind.rawValue)': no file Sources/GestureCore/Engine/Recognizers/\(file) \
                (its state machine with its transition table in the doc comment; MachineTableTests.files(_:) names the files)
                """)
            text += contents!
        }
        var rows: Set<Row> = []
        for line in text.split(separator: "\n") where line.hasPrefix("/// |") {
            let cells = line.dropFirst(4).split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 4, cells[0] != "from", !cells[0].hasPrefix("-") else { continue }
            rows.insert(Row(from: cells[0], event: cells[1], to: cells[2]))
        }
        return rows
    }

    static let configuration = pc([
        tap("single", requireToFail: ["double"]),
        tap("double", taps: 2),
        tap("two", fingers: 2),
        spec("press", .longPress),
        spec("tapPress", .longPress) { $0.taps = 2 },
        spec("twoTapPress", .longPress) { $0.taps = 2; $0.fingers = 2 },
        spec("tripleTapPress", .longPress, simultaneousWith: ["single", "double", "two", "tapPress"]) { $0.taps = 3 },
        spec("twoPress", .longPress) { $0.fingers = 2 },
        spec("pan", .pan),
        spec("pan2", .pan) { $0.minimumFingers = 2; $0.maximumFingers = 2 },
        spec("pinch", .pinch),
        spec("rotate", .rotation, simultaneousWith: ["pinch"]),
        spec("swipe", .swipe) { $0.directions = [.left, .right] },
        spec("swipe3", .swipe) { $0.fingers = 3; $0.directions = [.up, .down] },
        // Continuous on every device (touchpads make swipes continuous by default anyway).
        spec("slide", .swipe, simultaneousWith: ["pan", "pan2", "pinch", "rotate", "swipe", "swipe3"]) {
            $0.fingers = 2; $0.directions = [.left, .up]; $0.swipeStyle = .continuous
        },
        spec("edge", .edgePan) { $0.edges = [.left, .bottom]; $0.maximumFingers = 2; $0.edgeZone = 30 },
        spec("edge2", .edgePan, simultaneousWith: ["edge", "pan", "pan2", "pinch", "swipe", "swipe3"]) {
            $0.edges = [.right, .top]; $0.minimumFingers = 2; $0.edgeZone = 40
        },
    ])

    /// The same, with the pinch someone's (bound: it claims forwarded touches), for forwarded devices.
    static let claimingConfiguration: EngineConfiguration = {
        var c = configuration
        for i in c.recognizers.indices where c.recognizers[i].id == "pinch" { c.recognizers[i].claimsForwarded = true }
        return c
    }()

    /// Runs `seeds` random sequences and returns every step taken, per kind.
    static func fuzz(seeds: ClosedRange<Int>) -> [RecognizerKind: Set<Row>] {
        var seen: [RecognizerKind: Set<Row>] = [:]
        for seed in seeds {
            var rng = SplitMix(state: UInt64(seed))
            // Every third sequence on a forwarded device (a claiming pinch fails on a scroll there).
            let forwarded = seed % 3 == 0
            var engine = GestureEngine(configuration: forwarded ? claimingConfiguration : configuration)
            engine.tracesMachines = true
            if forwarded { engine.setForwarding(device: seed, true) }
            let pad = seed % 2 == 0
            let device = DeviceRef(id: seed, name: "d", kind: pad ? .touchpad : .touchscreen, isButtonpad: pad)
            var down: [UInt64: Point] = [:]
            var landed: [UInt64: Double] = [:]
            var next: UInt64 = 1
            var t = 0.0
            var button = false
            var outputs: [EngineOutput] = []
            func frame(_ touches: [Touch]) {
                let f = TouchFrame(device: device, time: Timestamp(microseconds: Int64(t * 1000)), touches: touches,
                                   surfaceSize: Point(x: 100, y: 70), unitsPerMM: Point(x: 1, y: 1),
                                   physicalButtonDown: button)
                outputs += engine.process(f)
            }
            func touch(_ id: UInt64, _ phase: TouchPhase, _ p: Point, from q: Point? = nil) -> Touch {
                Touch(id: TouchID(id), phase: phase, location: p, previousLocation: q ?? p, physicalLocation: p,
                      previousPhysicalLocation: q ?? p, time: Timestamp(microseconds: Int64(t * 1000)), device: device)
            }
            for _ in 0..<Int.random(in: 5...70, using: &rng) {
                t += Double(Int.random(in: 1...120, using: &rng)) + (Int.random(in: 0..<6, using: &rng) == 0 ? 450 : 0)
                var touches: [Touch] = []
                let roll = Int.random(in: 0..<100, using: &rng)
                let shape = Int.random(in: 0..<4, using: &rng)  // together, apart, twist, one anchored
                var changed: Set<UInt64> = []
                if roll < 24 && down.count < 4 {
                    let p = Point(x: Double.random(in: 0...100, using: &rng), y: Double.random(in: 0...70, using: &rng))
                    down[next] = p
                    landed[next] = t
                    changed.insert(next)
                    touches.append(touch(next, .began, p))
                    next += 1
                } else if roll < 72 && !down.isEmpty {
                    let step = [0.6, 3, 9].randomElement(using: &rng)!
                    let d = Point(x: Double.random(in: -step...step, using: &rng), y: Double.random(in: -step...step, using: &rng))
                    let centre = Point.centroid(of: Array(down.values))
                    for (k, (id, p)) in down.sorted(by: { $0.key < $1.key }).enumerated() where Bool.random(using: &rng) || shape > 0 {
                        let r = p - centre
                        let q: Point
                        switch shape {
                        case 0: q = p + d
                        case 1: q = p + r * (step / 20)
                        case 2: q = p + Point(x: -r.y, y: r.x) * (step / 20)
                        default: q = k == 0 ? p : p + d
                        }
                        let clamped = Point(x: min(100, max(0, q.x)), y: min(70, max(0, q.y)))
                        down[id] = clamped
                        changed.insert(id)
                        touches.append(touch(id, .moved, clamped, from: p))
                    }
                } else if roll < 86, let id = down.keys.randomElement(using: &rng) {
                    touches.append(touch(id, .ended, down[id]!))
                    down[id] = nil
                    changed.insert(id)
                } else if roll < 89 && !down.isEmpty {
                    for (id, p) in down { touches.append(touch(id, .cancelled, p)) }
                    changed = Set(down.keys)
                    down = [:]
                } else if roll < 95 && pad {
                    button.toggle()
                } else {
                    outputs += engine.advance(to: Timestamp(microseconds: Int64(t * 1000)))
                    continue
                }
                for (id, p) in down where !changed.contains(id) { touches.append(touch(id, .stationary, p)) }
                frame(touches)
                _ = landed
            }
            t += 10
            button = false
            frame(down.map { touch($0.key, .ended, $0.value) })
            outputs += engine.advance(to: Timestamp(microseconds: Int64((t + 2000) * 1000)))
            for case .explain(let e) in outputs where e.reason.hasPrefix("machine: ") {
                // "machine: <kind>: <from> --<event>--> <to>"
                let body = e.reason.dropFirst("machine: ".count)
                guard let colon = body.range(of: ": "),
                      let kind = RecognizerKind(rawValue: String(body[..<colon.lowerBound])) else { continue }
                let step = body[colon.upperBound...]
                let parts = step.components(separatedBy: " --")
                let rest = parts[1].components(separatedBy: "--> ")
                seen[kind, default: []].insert(Row(from: parts[0], event: rest[0], to: rest[1]))
            }
            #expect(engine.bugCount == 0, "seed \(seed): \(engine.lastBug ?? "")")
        }
        return seen
    }

    @Test("every step the fuzzer takes is a row of its recognizer's table, and every row is taken")
    func tablesAreTheCode() throws {
        let seen = Self.fuzz(seeds: 1...600)
        for kind in RecognizerKind.allCases {
            let rows = try Self.table(kind)
            #expect(!rows.isEmpty, "no `/// | from | event | to |` table in \(Self.files(kind))")
            let taken = seen[kind] ?? []
            let undocumented = taken.subtracting(rows)
            #expect(undocumented.isEmpty, "\(kind.rawValue): steps not in the table: \(undocumented.sorted { $0.description < $1.description })")
            let untaken = rows.subtracting(taken)
            #expect(untaken.isEmpty, "\(kind.rawValue): rows the fuzzer never took: \(untaken.sorted { $0.description < $1.description })")
        }
    }
}
