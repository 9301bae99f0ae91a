import Foundation
import Testing
import GestureDaemon

/// `gestured replay --svg`, rendered by a real SVG renderer (rsvg-convert, librsvg2-bin, which
/// scripts/test installs).
@Suite(.serialized) struct ReplayPictureRenderTests {
    static let renderer = "/usr/bin/rsvg-convert"

    /// Width and height of a PNG, from its IHDR chunk.
    static func pngSize(_ path: String) -> (Int, Int)? {
        guard let data = FileManager.default.contents(atPath: path), data.count > 24,
              data.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else { return nil }
        func be32(_ at: Int) -> Int { data[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
        return (be32(16), be32(20))
    }

    @Test(arguments: [("double tap", Paths.doubleTap), ("pinch", Paths.pinchZoomIn), ("busy pinch", Paths.pinch),
                      ("three-finger swipe", Paths.threeFingerSwipe)])
    func theSVGRendersWithRsvgAndShowsEveryGestureOfTheReplay(name: String, file: String) throws {
        #expect(FileManager.default.isExecutableFile(atPath: Self.renderer), "rsvg-convert is missing: scripts/test installs librsvg2-bin")
        let dir = TempDir()
        let svg = dir.file("out.svg"), png = dir.file("out.png")
        let replay = try runBinary("gestured", ["replay", file, "--explain", "--svg", svg, "--format", "json"])
        #expect(replay.status == 0, "\(name): \(replay.stderr)")
        #expect(replay.stderr.contains("wrote \(svg)"))
        let render = try runTool(Self.renderer, [svg, "-o", png])
        #expect(render.status == 0, "\(name): rsvg-convert: \(render.stderr)")
        #expect(render.stderr.isEmpty, "\(name): rsvg-convert complained: \(render.stderr)")
        let size = Self.pngSize(png)
        #expect(size?.0 == 1000, "\(name): \(String(describing: size))")
        #expect((size?.1 ?? 0) > 600)

        // Every gesture the replay printed is in the picture, numbered in order, with its kind and
        // state; every recognizer failure is listed (the replay's own output is the reference).
        let text = try String(contentsOfFile: svg, encoding: .utf8)
        let lines = replay.stdout.split(separator: "\n").map { json(String($0)) }
        let gestures = lines.filter { $0["type"] as? String == "gesture" }
        #expect(!gestures.isEmpty, "\(name): the replay recognized nothing")
        var number = 0
        var open = Set<String>()
        for g in gestures {
            let id = g["gesture"] as? String ?? "", state = g["state"] as? String ?? ""
            if open.contains(id) {
                if state != "changed" { open.remove(id) }
                continue
            }
            number += 1
            if state == "began" { open.insert(id) }
            #expect(text.contains(">G\(number) \(id)"), "\(name): no marker G\(number) \(id)")
            #expect(text.contains("G\(number)   "), "\(name): G\(number) is not in the list")
        }
        let failures = lines.filter { $0["type"] as? String == "explain" && $0["to"] as? String == "failed"
            && $0["from"] as? String != "failed" }
        #expect(text.contains(">F\(failures.count) "), "\(name): \(failures.count) failures, not all listed")
        #expect(!text.contains(">F\(failures.count + 1) "))
        for f in failures.prefix(20) {
            let reason = escapeXML(f["reason"] as? String ?? "?")
            #expect(text.contains(reason), "\(name): reason \(reason) missing")
        }
        #expect(text.contains(" mm") && text.contains(">Timeline<") && text.contains(">Legend<"))
    }

    func escapeXML(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "'", with: "&apos;")
    }

    @Test func anUnwritableSVGPathIsAClearErrorAndExit2() throws {
        let result = try runBinary("gestured", ["replay", Paths.doubleTap, "--svg", "/nonexistent/dir/out.svg"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("cannot write /nonexistent/dir/out.svg"))
    }
}
