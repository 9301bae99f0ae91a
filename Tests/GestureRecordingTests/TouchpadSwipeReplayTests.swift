import Foundation
import GestureCore
import GestureRecording
import Testing

/// Real three-finger swipes on two Chromebook touchpads (`Tests/Fixtures/chromiumos-autotest`, GPL-2.0,
/// README beside them): short (5–13 mm) and slow (0.8–1 s), as real touchpad swipes are. With the
/// default config each is one continuous `swipe-3` in its direction, and never a pinch or a rotation.
@Suite struct RealTouchpadSwipes {
    @Test func theRecordingsAreThereWithTheirLicence() {
        #expect(Corpus.autotestFiles.count == 4)
        #expect(FileManager.default.fileExists(atPath: Corpus.autotestRoot + "/README.md"))
    }

    @Test(arguments: Corpus.autotestFiles)
    func eachIsAThreeFingerSwipeInItsDirection(file: String) throws {
        let expected: SwipeDirection = file.contains("swipe-left") ? .left : .right
        let g = gestures(try replayWithDefaultConfig(file))
        let summary = g.map { "\($0.gesture) \($0.state.rawValue) \($0.direction?.rawValue ?? "")" }
        let swipe = g.filter { $0.gesture == "swipe-3" }
        #expect(swipe.first?.state == .began, "\(file): \(summary)")
        #expect(swipe.last?.state == .ended, "\(file): \(summary)")
        #expect(swipe.allSatisfy { $0.direction == expected && $0.fingers == 3 }, "\(file): \(summary)")
        #expect(swipe.filter { $0.state == .began }.count == 1, "one swipe: \(summary)")
        #expect(!g.contains { $0.kind == .pinch || $0.kind == .rotation }, "\(file): \(summary)")
        // Nothing else either: the swipe excludes the scroll, the taps and the one-finger pan.
        #expect(g.allSatisfy { $0.gesture == "swipe-3" }, "\(file): \(summary)")
        // Its translation is along its direction and a few mm long, as the README counts.
        let t = try #require(swipe.last?.translation)
        #expect(expected == .left ? t.x < -4 : t.x > 4, "\(file): \(t)")
    }
}

/// A real two-finger scroll after real pointer motion on the same Synaptics pad (derived:
/// `Tests/Fixtures/derived/README.md`): the pointer's one-finger pan gives way (cancelled, the count
/// rose on a touchpad) and the scroll is a two-finger pan, not the pointer's pan carried on.
@Suite struct PointerMotionThenScroll {
    static let file = URL(fileURLWithPath: Corpus.root).deletingLastPathComponent()
        .appendingPathComponent("derived/SynPS2 Synaptics TouchPad.pointer-then-two-finger-scroll.evemu").path

    @Test func theScrollIsATwoFingerPan() throws {
        let g = gestures(try replayWithDefaultConfig(Self.file))
        let summary = g.filter { $0.state != .changed }.map { "\($0.gesture) \($0.state.rawValue)" }
        let scroll = g.filter { $0.gesture == "two-finger-pan" }
        #expect(scroll.first?.state == .began, "\(summary)")
        #expect(scroll.last?.state == .ended, "\(summary)")
        #expect(scroll.count > 30, "the scroll's lines: \(scroll.count)")
        let pointer = g.filter { $0.gesture == "pan" }
        #expect(pointer.last?.state == .cancelled, "the pointer's pan gives way: \(summary)")
        #expect(pointer.last!.time < scroll.first!.time)
    }
}

/// Over every recording of the fixture folders, with the default config: a continuous gesture's
/// `ended` / `cancelled` line is where its last `began` / `changed` line was, give or take a few mm
/// (the fingers' last positions, the lifting ones included), not on the finger left down.
@Suite struct EndedLocationsDoNotJump {
    /// Positions are in mm with the default config (no surface rule): a few mm.
    static let tolerance = 5.0

    @Test(arguments: Corpus.everyRecordingName)
    func endedNearTheLastChange(file: String) throws {
        guard let outputs = try? replayWithDefaultConfig(file) else { return }
        var last: [String: Point] = [:]
        var wrong: [String] = []
        for g in gestures(outputs) {
            guard let location = g.location else { continue }
            switch g.state {
            case .began, .changed: last[g.gesture] = location
            case .ended, .cancelled:
                if let before = last[g.gesture], before.distance(to: location) > Self.tolerance {
                    wrong.append("\(g.gesture) \(g.state.rawValue)@\(g.time.microseconds / 1000)ms "
                                 + "\(before.distance(to: location)) from its last line")
                }
                last[g.gesture] = nil
            default: break
            }
        }
        #expect(wrong.isEmpty, "\(file): \(wrong.prefix(4))")
    }
}
