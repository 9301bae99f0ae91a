import Foundation
import GestureConfig
import GestureCore
import GestureDaemon
import GestureRecording
import Testing

/// Writing ahead (docs/forwarding.md): a forwarded read that nothing can take is written to the
/// clone before the engine runs. Over every real recording of the corpus and configs that claim in
/// different ways, reading a frame at a time (the daemon's path, which writes ahead) must give the
/// clone exactly what event-at-a-time replay gives (which never does), and the same outputs.
@Suite struct WritingAheadTests {
    static let corpus = Paths.packageRoot + "/Tests/Fixtures/evemu-devices/"

    /// Every touchpad and touchscreen recording of the corpus with its description.
    static func corpusRecordings() throws -> [[Recording]] {
        var result: [[Recording]] = []
        for folder in ["touchpads", "touchscreens"] {
            let names = try FileManager.default.contentsOfDirectory(atPath: corpus + folder).sorted()
            for name in names where name.hasSuffix(".events") {
                let path = corpus + folder + "/" + name
                guard let desc = RecordingLoader.siblingDescription(for: path) else { continue }
                result.append(try Replay.load(paths: [path], descriptionPath: desc))
            }
        }
        // Real Chromebook touchpads: three-finger swipes, pinches, thumbs, fat fingers.
        for folder in ["chromiumos-autotest", "chromiumos-touchmtb"] {
            let path = Paths.packageRoot + "/Tests/Fixtures/" + folder + "/"
            for name in try FileManager.default.contentsOfDirectory(atPath: path).sorted() where name.hasSuffix(".evemu") {
                result.append(try RecordingLoader.load(path: path + name))
            }
        }
        return result
    }

    /// The default config (nothing bound: nothing claims), and configs whose bound gestures claim
    /// touches of one, two and three fingers, hold some back, and pause the others.
    /// The least share of the corpus's frames each config writes ahead (its claims keep the rest).
    static let leastShareWrittenAhead: [String: Double] = [
        "default": 0.6, "one-finger pan and long press": 0.1, "pinch, double tap, three-finger swipe": 0.3,
        "three-finger swipe": 0.6, "devices only": 0.6,
    ]

    static let configs: [String: String?] = [
        "default": nil,
        // A config that names only its devices (the VM's latency test): the default gestures.
        "devices only": """
            version: 1
            devices: { forward: true }
            """,
        "one-finger pan and long press": """
            gestures:
              - { id: pan-1, kind: pan, fingers: 1 }
              - { id: hold, kind: long-press }
            bindings:
              - { gesture: pan-1, command: "true" }
              - { gesture: hold, command: "true" }
            """,
        "three-finger swipe": """
            gestures:
              - { id: swipe-3, kind: swipe, fingers: 3, directions: [left, right] }
            bindings:
              - { gesture: swipe-3, command: "true" }
            """,
        "pinch, double tap, three-finger swipe": """
            gestures:
              - { id: pinch, kind: pinch }
              - { id: double, kind: tap, taps: 2, delays-touches-began: true }
              - { id: swipe-3, kind: swipe, fingers: 3, directions: [left, right] }
              - { id: edge, kind: edge-pan, edges: [top, left], edge-zone: 10mm }
            bindings:
              - { gesture: pinch, command: "true" }
              - { gesture: double, command: "true" }
              - { gesture: swipe-3, command: "true" }
              - { gesture: edge, command: "true" }
            """,
    ]

    static func firstDifference<T: Equatable>(_ a: [T], _ b: [T]) -> Int {
        zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(a.count, b.count)
    }

    @Test(arguments: configs.keys.sorted())
    func readingFramesAndWritingAheadGiveTheClonesAndOutputsOfEventAtATimeReplay(config name: String) throws {
        let configuration = try Self.configs[name]!.map { try ConfigurationLoader.parse($0, file: "\(name).yml") }
            ?? ConfigurationLoader.loadDefault()
        var writtenAhead = 0, contradicted = 0, frames = 0
        for recordings in try Self.corpusRecordings() {
            let plain = Replay.forwarded(recordings, options: ReplayOptions(configuration: configuration))
            var ahead = 0, late = 0
            let framed = Replay.forwarded(recordings, options: ReplayOptions(configuration: configuration, readsFrames: true)) {
                ahead = $0.readsWrittenAhead
                late = $0.verdictsAfterWritingAhead
            }
            let source = recordings[0].source
            let clone = framed.clones[0].events, expected = plain.clones[0].events
            let differs = Self.firstDifference(clone, expected)
            #expect(clone == expected, "\(name): \(source): the clone differs from event \(differs) of \(expected.count)")
            let lines = framed.outputs.map { $0.jsonLine }, expectedLines = plain.outputs.map { $0.jsonLine }
            #expect(lines == expectedLines, "\(name): \(source): outputs differ from line \(Self.firstDifference(lines, expectedLines))")
            writtenAhead += ahead
            contradicted += late
            frames += recordings[0].events.filter { $0.type == .syn && $0.code == .synReport }.count
        }
        // The path is taken (most frames of a drag or a scroll nothing takes), and never contradicted.
        #expect(contradicted == 0)
        #expect(Double(writtenAhead) > Self.leastShareWrittenAhead[name]! * Double(frames),
                "\(name): \(writtenAhead) of \(frames) frames written ahead")
        print("writing ahead, \(name): \(writtenAhead) of \(frames) frames")
    }
}
