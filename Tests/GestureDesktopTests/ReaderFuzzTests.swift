import Foundation
import GestureCore
import GestureDesktop
import GestureProtocol
import Testing

/// What a compositor may send a reader that is not what it should: real replies (Fixtures/)
/// truncated, with bytes flipped, garbage spliced in, values swapped for other JSON types, and
/// nested a thousand deep. Every reader answers with a desktop or a typed error, never a crash; a
/// desktop read from garbage still encodes to lines the daemon takes or refuses with a path.
@Suite struct ReaderFuzzTests {
    typealias Seeded = DesktopSnapshotFuzzTests.Seeded
    /// Rounds per seed: 300 in the suite; more by hand with GESTURED_FUZZ_ROUNDS=N.
    static let rounds = ProcessInfo.processInfo.environment["GESTURED_FUZZ_ROUNDS"].flatMap(Int.init) ?? 300

    static func mutate(_ bytes: [UInt8], _ random: inout Seeded) -> [UInt8] {
        var out = bytes
        for _ in 0..<(1 + random.below(4)) where !out.isEmpty {
            switch random.below(6) {
            case 0: out = Array(out.prefix(random.below(out.count)))
            case 1: out[random.below(out.count)] = UInt8(truncatingIfNeeded: random.next())
            case 2: out.insert(contentsOf: Array(#"{"x":[1e999,"\u0000",null,-0.0,{}]}"#.utf8), at: random.below(out.count))
            case 3:
                // A value of another type where a number, string or literal stood.
                let spans = DesktopSnapshotFuzzTests.valueSpans(out)
                guard !spans.isEmpty else { continue }
                let replacement = ["null", "\"\"", "[]", "{}", "-1e308", "1e-400", "true", "\"\u{1F600}\""][random.below(8)]
                out.replaceSubrange(spans[random.below(spans.count)], with: Array(replacement.utf8))
            case 4:
                let start = random.below(out.count)
                out.removeSubrange(start..<min(out.count, start + random.below(64)))
            default: out += out.prefix(random.below(out.count))
            }
        }
        return out
    }

    /// The desktop a reader made (from whatever it was given) goes through the bridge's encoder and
    /// the daemon's decoder without a crash.
    static func encodes(_ desktop: Desktop) {
        for line in DesktopSnapshot.lines(for: desktop, backend: "fuzz", snapshot: 1).lines {
            _ = DesktopSnapshot.parse(line)
        }
    }

    static func json(_ bytes: [UInt8]) -> DesktopJSON? { try? DesktopJSON(parsing: bytes) }

    @Test(arguments: [11, 12, 13]) func swayRepliesMangled(seed: UInt64) throws {
        var random = Seeded(state: seed)
        let trees = try ["sway-tiled-floating-tree.json", "sway-tabbed-tree.json", "sway-fullscreen-tree.json"].map(Fixtures.bytes)
        let outputs = try Fixtures.bytes("sway-outputs.json")
        var read = 0
        for round in 0..<Self.rounds {
            let tree = round % 3 == 0 ? trees[round % trees.count] : Self.mutate(trees[round % trees.count], &random)
            let out = round % 3 == 1 ? outputs : Self.mutate(outputs, &random)
            guard let t = Self.json(tree), let o = Self.json(out) else { continue }
            if let desktop = try? SwayTreeReader.scene(tree: t, outputs: o) {
                read += 1
                Self.encodes(desktop)
            }
        }
        #expect(read > 0)
    }

    @Test(arguments: [21, 22]) func hyprlandAndNiriRepliesMangled(seed: UInt64) throws {
        var random = Seeded(state: seed)
        let monitors = try Fixtures.bytes("hyprland-monitors.json"), clients = try Fixtures.bytes("hyprland-clients.json")
        let niri = try ["niri-outputs.json", "niri-workspaces.json", "niri-windows.json"].map(Fixtures.bytes)
        for _ in 0..<Self.rounds {
            if let m = Self.json(Self.mutate(monitors, &random)), let c = Self.json(Self.mutate(clients, &random)),
               let desktop = try? HyprlandReader.scene(monitors: m, clients: c, activeWindow: nil, cursor: nil) {
                Self.encodes(desktop)
            }
            let parts = niri.map { Self.json(Self.mutate($0, &random)) }
            guard let o = parts[0], let w = parts[1], let n = parts[2],
                  let outputs = try? NiriReader.response(o, "Outputs"), let workspaces = try? NiriReader.response(w, "Workspaces"),
                  let windows = try? NiriReader.response(n, "Windows") else { continue }
            if let (desktop, _) = try? NiriReader.scene(outputs: outputs, workspaces: workspaces, windows: windows) {
                Self.encodes(desktop)
            }
        }
    }

    @Test func deepNestingAndGarbageAreErrorsNotCrashes() {
        let deep = Array(repeating: UInt8(ascii: "["), count: 100_000)
        #expect(throws: DesktopJSON.SyntaxError.self) { try DesktopJSON(parsing: deep) }
        var random = Seeded(state: 99)
        for _ in 0..<2000 {
            let garbage = (0..<random.below(200)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            _ = try? DesktopJSON(parsing: garbage)
        }
    }

    /// A compositor that floods: a frame header announcing more than a reply may take is an error
    /// at once, before any of it is buffered.
    @Test func anI3FrameLargerThanTheLimitIsRefusedBeforeItIsRead() throws {
        var decoder = I3FrameDecoder(maximumPayload: 1 << 20)
        var header = Array("i3-ipc".utf8)
        header += withUnsafeBytes(of: UInt32(1 << 30).littleEndian, Array.init)
        header += withUnsafeBytes(of: UInt32(4).littleEndian, Array.init)
        #expect(throws: I3FrameDecoder.Failure.self) {
            decoder.append(header)
            _ = try decoder.next()
        }
    }
}
