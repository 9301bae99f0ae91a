import Foundation
import GestureConfig
import GestureCore
import GestureRecording
import Testing

/// Issue 11's acceptance on real hands, with the default config: the Chromium OS touchpad pinches,
/// thumbs and fat fingers (`Tests/Fixtures/chromiumos-touchmtb`), the ALPS taps, and finger counts
/// and end locations over every recording of both fixture folders.
@Suite struct RealHandsOnRecordings {
    static let zoomIn = Corpus.touchMTBFiles.filter { $0.contains("zoom_in") }
    static let zoomOut = Corpus.touchMTBFiles.filter { $0.contains("zoom_out") }
    static let thumbsAndFatFingers = Corpus.touchMTBFiles.filter { $0.contains("thumb") || $0.contains("fatfinger") }

    /// The recording cut short after 68 ms: its fingers only got to 0.43 of their first span.
    static func zoomOutBound(_ file: String) -> Double { file.contains("022909") ? 0.8 : 0.5 }

    @Test func theChromiumRecordingsAreThereWithTheirLicence() {
        #expect(Self.zoomIn.count == 4)
        #expect(Self.zoomOut.count == 3)
        #expect(Self.thumbsAndFatFingers.count == 6)
        #expect(Corpus.touchMTBFiles.count == 13)
        #expect(FileManager.default.fileExists(atPath: Corpus.touchMTBRoot + "/README.md"))
        #expect(Corpus.path(Self.zoomIn[0]).hasPrefix(Corpus.touchMTBRoot + "/"))
    }

    private func summary(_ g: [GestureEvent]) -> String {
        g.map { "\($0.gesture) \($0.state.rawValue)@\($0.time.microseconds / 1000) f\($0.fingers)" }
            .joined(separator: ", ")
    }

    /// The pinch's last `ended` line: the scale the user ends the zoom with.
    private func finalPinchScale(_ file: String) throws -> Double {
        let g = gestures(try replayWithDefaultConfig(file))
        let ended = try #require(g.last { $0.kind == .pinch && $0.state == .ended },
                                 "\(file): no pinch ended: \(summary(g))")
        return try #require(ended.scale)
    }

    @Test(arguments: zoomIn)
    func zoomInIsAPinchBeyondTwo(file: String) throws {
        let scale = try finalPinchScale(file)
        #expect(scale > 2, "\(file): final pinch scale \(scale)")
    }

    @Test(arguments: zoomOut)
    func zoomOutIsAPinchBelowAHalf(file: String) throws {
        let scale = try finalPinchScale(file)
        #expect(scale < Self.zoomOutBound(file), "\(file): final pinch scale \(scale)")
    }

    /// Two fingers that start close together and spread drift by 7–15°: that is a zoom, not a twist.
    @Test(arguments: zoomIn + zoomOut)
    func aZoomFiresNoRotation(file: String) throws {
        let g = gestures(try replayWithDefaultConfig(file))
        let turns = g.filter { $0.kind == .rotation }
        #expect(turns.count == 0, "\(file): \(summary(Array(turns.prefix(6))))")
    }

    /// A thumb or fat finger resting (or dragged along the edge) beside a moving finger is not a
    /// second gesture finger: no pinch, no rotation, no pan / swipe / edge pan of two or more fingers.
    @Test(arguments: thumbsAndFatFingers)
    func aThumbOrFatFingerIsNoSecondFinger(file: String) throws {
        let g = gestures(try replayWithDefaultConfig(file))
        let twoFingerKinds: Set<RecognizerKind> = [.pan, .swipe, .edgePan]
        let wrong = g.filter { $0.kind == .pinch || $0.kind == .rotation
            || (twoFingerKinds.contains($0.kind) && $0.fingers >= 2) }
        #expect(wrong.count == 0, "\(file): \(summary(Array(wrong.prefix(8))))")
    }
}

/// The ALPS GlidePoint taps: each file carries its own evemu header (a semi-MT touchpad, two slots,
/// resolution 0, so the touchpad size is assumed), and the first report after touch-down jumps
/// about 3.5 mm in 10 ms.
@Suite struct ALPSGlidePointTaps {
    static let singleTap = "AlpsPS2 ALPS GlidePoint.single-tap.events"
    static let twoFingerTap = "AlpsPS2 ALPS GlidePoint.2-finger-tap.events"

    @Test(arguments: [singleTap, twoFingerTap])
    func describedByTheirOwnHeader(file: String) throws {
        let recording = try #require(try RecordingLoader.load(path: Corpus.path(file)).first)
        #expect(recording.description.name == "AlpsPS/2 ALPS GlidePoint")
        #expect(recording.description.kind == .touchpad)
        #expect(recording.description.has(.semiMT))
        #expect(recording.description.absInfo[.absMTPositionX]?.maximum == 2000, "the header's range, not the .desc's")
        #expect(recording.warnings.isEmpty)
    }

    /// One tap, recognized by the default `tap` (after `double-tap` failed at the end of its
    /// interval); the first-contact jump starts no pan.
    @Test func singleTapIsExactlyOneTap() throws {
        let g = gestures(try replayWithDefaultConfig(Self.singleTap))
        let taps = g.filter { $0.kind == .tap }
        #expect(taps.count == 1, "\(g.map { "\($0.gesture) \($0.state.rawValue)" })")
        #expect(taps.first?.gesture == "tap")
        #expect(taps.first?.state == .recognized)
        #expect(taps.first?.fingers == 1)
        #expect(taps.first?.taps == 1)
        #expect(!g.contains { $0.kind == .pan || $0.kind == .edgePan }, "\(g.map(\.gesture))")
    }

    @Test func twoFingerTapIsATapOfTwoFingers() throws {
        let g = gestures(try replayWithDefaultConfig(Self.twoFingerTap))
        let taps = g.filter { $0.kind == .tap && $0.state == .recognized }
        #expect(taps.contains { $0.fingers == 2 && $0.gesture == "two-finger-tap" },
                "\(g.map { "\($0.gesture) \($0.state.rawValue) f\($0.fingers)" })")
        #expect(!taps.contains { $0.fingers != 2 }, "only the two-finger tap: \(taps.map(\.gesture))")
    }
}

/// Over every recording of both fixture folders, with the default config: no line reports more (or
/// fewer) fingers than its recognizer allows, and nothing ends at the origin.
@Suite struct EveryRecordingKeepsFingerLimits {
    static let limits = FingerLimits(defaultEngineConfiguration)
    /// The header-only recording: a recording of nothing (0 events, `RecordingReplayTests`).
    static let empty = "Wacom Cintiq 22HDT Finger.events"

    private func replay(_ file: String) throws -> [GestureEvent]? {
        if file == Self.empty {
            #expect(gestures(try replayWithDefaultConfig(file)).isEmpty)
            return nil
        }
        return gestures(try replayWithDefaultConfig(file))
    }

    @Test func bothFoldersAreEnumerated() {
        #expect(Corpus.everyRecordingName.count == Corpus.recordingPaths.count + 13 + 4)
        #expect(Set(Corpus.everyRecordingName).count == Corpus.everyRecordingName.count, "names are unique")
    }

    @Test(arguments: Corpus.everyRecordingName)
    func noLineReportsMoreFingersThanItsRecognizerAllows(file: String) throws {
        guard let g = try replay(file) else { return }
        let wrong = Self.limits.violations(g)
        #expect(wrong.count == 0, "\(file): first: \(wrong.prefix(5))")
    }

    @Test(arguments: Corpus.everyRecordingName)
    func noGestureEndsAtTheOrigin(file: String) throws {
        guard try replay(file) != nil else { return }
        let wrong = endsAtOrigin(try replayWithDefaultConfig(file, touches: true))
        #expect(wrong.count == 0, "\(file): first: \(wrong.prefix(5))")
    }

    /// The origin check itself: an end at (0, 0) counts unless a touch was really there.
    @Test func anEndAtTheOriginIsCaughtUnlessATouchWasThere() {
        let end = EngineOutput.gesture(GestureEvent(gesture: "pan", kind: .pan, state: .ended, time: .zero, device: "d",
                                                    region: "screen", fingers: 1, location: Point(x: 0, y: 0)))
        func touch(at p: Point) -> EngineOutput {
            .touch(TouchEvent(phase: .ended, id: TouchID(1), location: p, region: nil, tapCount: 1, time: .zero, device: "d"))
        }
        #expect(endsAtOrigin([touch(at: Point(x: 3, y: 4)), end]).count == 1)
        #expect(endsAtOrigin([end]).count == 1)
        #expect(endsAtOrigin([touch(at: Point(x: 0, y: 0)), end]).isEmpty)
    }

    /// The limits come from the loaded config: lines one finger beyond them, either way, are caught.
    @Test(arguments: [("tap", 1), ("pan", 1), ("two-finger-pan", 2), ("pinch", 2), ("rotate", 2), ("swipe-3", 3),
                      ("edge-left", 1), ("long-press", 1)])
    func limitsAreReadFromTheConfig(gesture: String, fingers: Int) throws {
        let spec = try #require(defaultEngineConfiguration.recognizers.first { $0.id == gesture })
        func line(_ n: Int) -> GestureEvent {
            GestureEvent(gesture: gesture, kind: spec.kind, state: .changed, time: .zero, device: "d", region: "screen", fingers: n)
        }
        #expect(Self.limits.violations([line(fingers)]).isEmpty)
        #expect(Self.limits.violations([line(fingers + 1)]).count == 1)
        #expect(Self.limits.violations([line(fingers - 1)]).count == 1)
    }
}
