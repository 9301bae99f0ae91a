import Foundation
import Testing

/// A window's pinch must not freeze touchpad scrolling (issue 49 item 4): with forwarding on and a
/// window rule that binds a pinch, a real two-finger scroll over that window reaches the desktop
/// within about 150 ms of the second finger landing, not in one burst at the lift. The desktop's own
/// scroll is the pinch's rival even with no pan configured. Through `gestured replay --forward
/// --desktop` (the daemon's pipeline; the evemu it writes is what the desktop would read).
@Suite struct ForwardedWindowPinchTests {
    static let config = """
        version: 1
        devices: { forward: true }
        windows:
          - id: browser
            match: { app: "firefox*" }
            gestures:
              - { id: browser-pinch, kind: pinch }
        bindings:
          - { gesture: browser-pinch, every: 10%, keys-increase: [leftctrl, kpplus], keys-decrease: [leftctrl, kpminus] }
        """
    static let desktop = #"{"request":"desktop","version":1,"backend":"sway","seat":"seat0","snapshot":1,"part":0,"parts":1,"#
        + #""outputs":[{"name":"eDP-1","x":0,"y":0,"width":1000,"height":1000,"scale":1,"transform":"normal"}],"#
        + #""windows":[{"id":"7","app":"firefox","title":"page","output":"eDP-1","x":0,"y":0,"width":1000,"height":1000,"stack":1,"focused":true}]}"#

    /// (µs) Per tracking id: when it landed on the device, when its first event reached the clone.
    static func landings(_ evemu: String) -> [Int: Int] {
        var slotIDs: [Int: Int] = [:]
        var slot = 0
        var first: [Int: Int] = [:]
        var time = 0
        for line in evemu.split(separator: "\n") where line.hasPrefix("E: ") {
            let f = line.split(separator: " ")
            guard f.count >= 5 else { continue }
            let parts = f[1].split(separator: ".")
            time = Int(parts[0])! * 1_000_000 + Int(parts[1])!
            let type = Int(f[2], radix: 16) ?? Int(f[2])!, code = Int(f[3], radix: 16) ?? Int(f[3])!, value = Int(f[4])!
            guard type == 3 else { continue }
            if code == 0x2f { slot = value }
            if code == 0x39 && value >= 0 {
                slotIDs[slot] = value
                if first[value] == nil { first[value] = time }
            }
        }
        _ = slotIDs
        return first
    }

    @Test func aTwoFingerScrollOverAWindowWithABoundPinchReachesTheDesktopAtOnce() throws {
        let dir = TempDir()
        try Self.config.write(toFile: dir.file("g.yaml"), atomically: true, encoding: .utf8)
        try (Self.desktop + "\n").write(toFile: dir.file("desktop.json"), atomically: true, encoding: .utf8)
        let recording = Paths.packageRoot + "/Tests/Fixtures/evemu-devices/touchpads/SynPS2 Synaptics TouchPad.two-finger-vert-scroll.events"
        let out = dir.file("clone.evemu")
        let run = try runBinary("gestured", ["replay", "--config", dir.file("g.yaml"), "--desktop", dir.file("desktop.json"),
                                             "--forward", out, "--format", "json", "--explain", recording])
        #expect(run.status == 0, "\(run.stderr)")
        let source = Self.landings(try String(contentsOfFile: recording, encoding: .utf8))
        let clone = Self.landings(try String(contentsOfFile: out, encoding: .utf8))
        // Every finger that landed reaches the clone, the second of each pair within 150 ms (and a
        // frame) of landing; before, it was held until the fingers lifted.
        var late: [String] = []
        for (id, landed) in source.sorted(by: { $0.key < $1.key }) {
            guard let sent = clone[id] else { late.append("tracking id \(id) never reached the desktop"); continue }
            if sent - landed > 165_000 { late.append("tracking id \(id): \((sent - landed) / 1000) ms late") }
        }
        #expect(source.count >= 2)
        #expect(late.isEmpty, "\(late); explain: \(run.stdout.split(separator: "\n").filter { $0.contains("browser-pinch") }.prefix(6))")
        #expect(!run.stdout.contains(#""gesture":"browser-pinch","state":"began""#))
    }
}
