import Foundation
import GestureCore
import GestureProtocol
import Testing

/// The `desktop` request's decoder under seeded mutation (the daemon reads these lines from any
/// client of the socket): no crash, every valid-JSON line answered with a JSON path, numbers beyond a
/// field's type named by their path, and every line the bridge's encoder writes read back.
@Suite struct DesktopSnapshotFuzzTests {
    /// A small deterministic generator (SplitMix64), so a failure names its seed.
    struct Seeded {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    }

    static let base: String = {
        let desktop = Desktop(outputs: [
            DesktopOutput(name: "eDP-1", width: 1280, height: 800, scale: 1.25, transform: .rotated90, focused: true),
            DesktopOutput(name: "DP-1", x: 1280, width: 1920, height: 1080),
        ], windows: [
            DesktopWindow(id: "7", app: "firefox", title: "Start", pid: 4242, output: "eDP-1", x: 0, y: 0, width: 640,
                          height: 800, stack: 1, focused: true, workspace: "1"),
            DesktopWindow(id: "9", app: "foot", title: "~", output: "DP-1", x: 10, y: 20, width: 300, height: 200, stack: 2,
                          floating: true),
        ], pointer: DesktopPointer(output: "DP-1", x: 5, y: 5))
        return DesktopSnapshot.lines(for: desktop, backend: "gnome", snapshot: 3).lines[0]
    }()

    /// Values put in place of a number, a string or a literal of the line.
    static let replacements = ["1.5", "1e400", "-1e400", "1e-400", "123456789012345678901234", "-0", "1000001", "-1",
                               "0.0", "1e2", "\"x\"", "null", "true", "{}", "[]", "\"\"", "4294967296", "-9223372036854775809"]

    static func isValidJSON(_ line: String) -> Bool {
        (try? JSONSerialization.jsonObject(with: Data(line.utf8), options: [.fragmentsAllowed])) != nil
    }

    /// The spans of the line's numbers, strings and literals (true, false, null).
    static func valueSpans(_ bytes: [UInt8]) -> [Range<Int>] {
        var spans: [Range<Int>] = []
        var i = 0
        while i < bytes.count {
            let c = bytes[i]
            if c == UInt8(ascii: "\"") {
                var j = i + 1
                while j < bytes.count && bytes[j] != UInt8(ascii: "\"") { j += bytes[j] == UInt8(ascii: "\\") ? 2 : 1 }
                spans.append(i..<min(j + 1, bytes.count))
                if j >= bytes.count { break }
                i = j + 1
            } else if "-0123456789tfn".utf8.contains(c) {
                var j = i
                while j < bytes.count, !",}] ".utf8.contains(bytes[j]) { j += 1 }
                spans.append(i..<j)
                i = j
            } else {
                i += 1
            }
        }
        return spans
    }

    static func mutant(_ random: inout Seeded) -> String {
        var bytes = Array(base.utf8)
        for _ in 0..<(1 + random.below(3)) where !bytes.isEmpty {
            switch random.below(5) {
            case 0, 1, 2:
                let spans = valueSpans(bytes)
                guard !spans.isEmpty else { continue }
                let span = spans[random.below(spans.count)]
                bytes.replaceSubrange(span, with: Array(replacements[random.below(replacements.count)].utf8))
            case 3: bytes = Array(bytes.prefix(random.below(bytes.count)))
            default: bytes.insert([UInt8(ascii: "{"), UInt8(ascii: ","), 0xFF, UInt8(ascii: "1")][random.below(4)],
                                  at: random.below(bytes.count))
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func theEncodersLineReadsBack() throws {
        #expect(try DesktopSnapshot.parse(Self.base).get().windows.count == 2)
    }

    /// Mutants per seed: 500 in the suite; more by hand with GESTURED_FUZZ_ROUNDS=N.
    static let rounds = ProcessInfo.processInfo.environment["GESTURED_FUZZ_ROUNDS"].flatMap(Int.init) ?? 500

    @Test(arguments: [1, 2, 3, 4])
    func mutantsNeverCrashAndEveryValidJSONErrorHasAPath(seed: UInt64) {
        var random = Seeded(state: seed)
        var refused = 0
        for _ in 0..<Self.rounds {
            let line = Self.mutant(&random)
            switch DesktopSnapshot.parse(line) {
            case .success: continue
            case .failure(let error):
                refused += 1
                guard Self.isValidJSON(line) else { continue }
                #expect(!error.message.hasPrefix("the request: malformed") && !error.message.hasPrefix("malformed"),
                        "seed \(seed): no path for \(line): \(error.message)")
            }
        }
        #expect(refused > Self.rounds / 5)
    }

    @Test func numbersBeyondAFieldsTypeAreNamedByTheirPath() throws {
        func message(_ line: String) -> String? {
            if case .failure(let error) = DesktopSnapshot.parse(line) { return error.message }
            return nil
        }
        let line = Self.base
        #expect(message(line.replacingOccurrences(of: #""pid":4242"#, with: #""pid":123456789012345678901234"#))
                == "windows[0].pid: expected a whole number, got 123456789012345678901234")
        #expect(message(line.replacingOccurrences(of: #""part":0"#, with: #""part":1.5"#))
                == "part: expected a whole number, got 1.5")
        #expect(message(line.replacingOccurrences(of: #""snapshot":3"#, with: #""snapshot":4294967296"#))
                == "snapshot: expected a whole number from 0 to 4294967295, got 4294967296")
        #expect(message(line.replacingOccurrences(of: #""width":640"#, with: #""width":1e400"#))
                == "windows[0].width: not a finite number, got 1e400")
        // Valid numbers in any spelling the JSON grammar allows: 1e-400 reads as 0, 1e2 as 100.
        let small = try DesktopSnapshot.parse(line.replacingOccurrences(of: #""x":10"#, with: #""x":1e-400"#)).get()
        #expect(small.windows[1].x == 0)
        let spelled = try DesktopSnapshot.parse(line.replacingOccurrences(of: #""stack":2"#, with: #""stack":2e0"#)).get()
        #expect(spelled.windows[1].stack == 2)
    }
}
