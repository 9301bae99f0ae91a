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

    /// A real pen (Tests/Fixtures/pens): its two strokes drawn with a nib and a line as wide as the
    /// pressure, its stays in range as dotted hovers, and the picture renders.
    @Test func aRealPensReplayDrawsItsStrokesAndHoversAndRenders() throws {
        let dir = TempDir()
        let svg = dir.file("pen.svg"), png = dir.file("pen.png")
        let replay = try runBinary("gestured", ["replay", Paths.corpus("pens/Wacom Cintiq 13HD touch Pen.events"),
                                                "--touches", "--svg", svg, "--format", "json"])
        #expect(replay.status == 0, "\(replay.stderr)")
        let lines = replay.stdout.split(separator: "\n").map { json(String($0)) }.filter { $0["type"] as? String == "touch" }
        let began = lines.filter { $0["phase"] as? String == "began" }
        let hovers = Set(lines.filter { $0["phase"] as? String == "hovering" }.compactMap { $0["id"] as? Int })
        #expect(began.count == 2 && began.allSatisfy { $0["kind"] as? String == "pen" })
        #expect(!hovers.isEmpty)
        #expect(replay.stderr.contains("wrote \(svg): 2 touches"))
        let render = try runTool(Self.renderer, [svg, "-o", png])
        #expect(render.status == 0 && render.stderr.isEmpty, "rsvg-convert: \(render.stderr)")
        #expect(Self.pngSize(png)?.0 == 1000)

        let text = try String(contentsOfFile: svg, encoding: .utf8)
        func count(_ s: String) -> Int { text.components(separatedBy: s).count - 1 }
        // One nib per pen touch in each view of the surface (the whole, and the detail of a small area),
        // plus the legend's.
        let views = text.contains("Detail: ") ? 2 : 1
        #expect(count("class=\"pen-nib\"") == 2 * views + 1)
        #expect(count("<g class=\"pen-stroke\"") >= 2 * views)
        #expect(count("class=\"pen-hover\"") == hovers.count * views + 1)
        #expect(text.contains("2 touches (2 of a pen)"))
        #expect(text.contains(">pen T") && text.contains("pen, pressure ≤ ") && text.contains("pen hovering H"))
    }

    /// The text format of the same replay names the pen, its pressure and tilt, and the hover.
    @Test func aRealPensReplayInTextNamesThePenItsPressureAndTilt() throws {
        let replay = try runBinary("gestured", ["replay", Paths.corpus("pens/Wacom Cintiq 13HD touch Pen.events"),
                                                "--touches", "--format", "text"])
        #expect(replay.status == 0, "\(replay.stderr)")
        // At 80 columns (not a terminal): the pen's pressure and tilt come first, so they fit.
        let lines = replay.stdout.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("--") }
        #expect(lines.allSatisfy { $0.unicodeScalars.count <= 80 })
        #expect(lines.contains { $0.contains(" pen ") && $0.contains(" began ") && $0.contains("pressure 0.") && $0.contains("tilt ") })
        #expect(lines.contains { $0.contains(" pen ") && $0.contains(" hovering") && $0.contains("distance ") })
        #expect(lines.contains { $0.contains(" hover-ended") })
        #expect(!lines.contains { $0.contains(" touch ") }, "a pen line shown as a finger's")
    }

    @Test func anUnwritableSVGPathIsAClearErrorAndExit2() throws {
        let result = try runBinary("gestured", ["replay", Paths.doubleTap, "--svg", "/nonexistent/dir/out.svg"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("cannot write /nonexistent/dir/out.svg"))
    }
}
