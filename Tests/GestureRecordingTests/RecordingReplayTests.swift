import Foundation
import GestureCore
import Testing
@testable import GestureRecording

/// The shared corpus copied into the repository (`Tests/Fixtures/evemu-devices`), found from this file.
enum Corpus {
    static let root: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/evemu-devices").path

    /// Every `.events` / `.evemu` file, relative to `root` (e.g. `touchpads/…`).
    static let recordingPaths: [String] = {
        let files = FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? []
        return files.filter { $0.hasSuffix(".events") || $0.hasSuffix(".evemu") }.sorted()
    }()

    /// A recording of this corpus, or of the Chromium OS recordings beside it (`touchMTBPath`).
    static func path(_ name: String) -> String {
        if name.hasPrefix("/") { return name }
        return recordingPaths.first { $0.hasSuffix("/" + name) }.map { root + "/" + $0 }
            ?? touchMTBPath(name) ?? (autotestFiles.contains(name) ? autotestRoot + "/" + name : nil)
            ?? root + "/" + name
    }
}

/// One row of the facts table in `/work/shared/recordings/README.md` (counted from the `E:` lines).
struct Fact: Sendable, CustomTestStringConvertible {
    var file: String
    var events: Int
    var sequences: Int
    var maxContacts: Int
    var toolFingers: Int
    var unterminated: Int
    init(_ file: String, events: Int, sequences: Int, maxContacts: Int, toolFingers: Int, unterminated: Int) {
        self.file = file
        self.events = events
        self.sequences = sequences
        self.maxContacts = maxContacts
        self.toolFingers = toolFingers
        self.unterminated = unterminated
    }
    var testDescription: String { file }

    static let all: [Fact] = [
        Fact("Atmel maXTouch Touchscreen.1-finger-drag-up-down.events", events: 502, sequences: 1, maxContacts: 1, toolFingers: 0, unterminated: 0),
        Fact("Atmel maXTouch Touchscreen.1-finger-fast-taps.events", events: 84, sequences: 9, maxContacts: 1, toolFingers: 0, unterminated: 0),
        Fact("Atmel maXTouch Touchscreen.2-fingers-touch-release.events", events: 64, sequences: 2, maxContacts: 2, toolFingers: 0, unterminated: 0),
        Fact("Atmel maXTouch Touchscreen.4-finger-drag-down.events", events: 309, sequences: 4, maxContacts: 4, toolFingers: 0, unterminated: 0),
        Fact("ELAN CANDO Windows7.1-finger-drag-up-down.events", events: 1849, sequences: 1, maxContacts: 1, toolFingers: 0, unterminated: 0),
        Fact("EP0430M09.1-finger-drag-up-down.events", events: 735, sequences: 1, maxContacts: 1, toolFingers: 0, unterminated: 0),
        Fact("EP0430M09.2-finger-scroll-down.events", events: 695, sequences: 2, maxContacts: 2, toolFingers: 0, unterminated: 0),
        Fact("EP0430M09.2-fingers-touch-release.events", events: 58, sequences: 2, maxContacts: 2, toolFingers: 0, unterminated: 0),
        Fact("N-Trig MultiTouch.1-finger-drag-NW-SE.events", events: 955, sequences: 0, maxContacts: 0, toolFingers: 2, unterminated: 0),
        Fact("N-Trig MultiTouch.2-fingers-touch-release.events", events: 2203, sequences: 0, maxContacts: 0, toolFingers: 2, unterminated: 0),
        Fact("QUANTA OpticalTouchScreen.events", events: 2832, sequences: 9, maxContacts: 1, toolFingers: 0, unterminated: 0),
        Fact("QUANTA OpticalTouchScreen.touch-hover.events", events: 448, sequences: 1, maxContacts: 1, toolFingers: 0, unterminated: 0),
        Fact("QUANTA OpticalTouchScreen.touch-on-left.events", events: 147, sequences: 1, maxContacts: 1, toolFingers: 0, unterminated: 0),
        Fact("AlpsPS2 ALPS GlidePoint.2-finger-tap.events", events: 76, sequences: 2, maxContacts: 2, toolFingers: 2, unterminated: 0),
        Fact("AlpsPS2 ALPS GlidePoint.double-tap.events", events: 88, sequences: 2, maxContacts: 1, toolFingers: 1, unterminated: 0),
        Fact("AlpsPS2 ALPS GlidePoint.right-edge-scroll.events", events: 230, sequences: 1, maxContacts: 1, toolFingers: 1, unterminated: 0),
        Fact("AlpsPS2 ALPS GlidePoint.single-tap.events", events: 46, sequences: 1, maxContacts: 1, toolFingers: 1, unterminated: 0),
        Fact("AlpsPS2-ALPS-DualPoint-TouchPad-non-MT.doubletap.events", events: 20, sequences: 0, maxContacts: 0, toolFingers: 1, unterminated: 0),
        Fact("AlpsPS2-ALPS-DualPoint-TouchPad-non-MT.tap.events", events: 18, sequences: 0, maxContacts: 0, toolFingers: 1, unterminated: 0),
        Fact("AlpsPS2-ALPS-DualPoint-TouchPad.events", events: 2141, sequences: 1, maxContacts: 1, toolFingers: 1, unterminated: 0),
        Fact("CyPS2 Cypress Trackpad.three_finger_press.events", events: 342, sequences: 3, maxContacts: 2, toolFingers: 3, unterminated: 0),
        Fact("CyPS2 Cypress Trackpad.three_finger_tap.events", events: 48, sequences: 2, maxContacts: 2, toolFingers: 3, unterminated: 0),
        Fact("CyPS2 Cypress Trackpad.two_finger_press.events", events: 278, sequences: 2, maxContacts: 2, toolFingers: 2, unterminated: 0),
        Fact("CyPS2 Cypress Trackpad.two_finger_tap.events", events: 70, sequences: 2, maxContacts: 2, toolFingers: 2, unterminated: 0),
        Fact("ETPS2 Elantech Touchpad.Samsung-700Z3A.events", events: 1557, sequences: 2, maxContacts: 1, toolFingers: 1, unterminated: 0),
        Fact("ETPS2 Elantech Touchpad.events", events: 1718, sequences: 3, maxContacts: 1, toolFingers: 1, unterminated: 0),
        Fact("SynPS2 Synaptics TouchPad-fdo23890.events", events: 2999, sequences: 0, maxContacts: 0, toolFingers: 1, unterminated: 0),
        Fact("SynPS2 Synaptics TouchPad-with-scrollbuttons.events", events: 529, sequences: 2, maxContacts: 1, toolFingers: 1, unterminated: 0),
        Fact("SynPS2 Synaptics TouchPad.button-rpress.events", events: 143, sequences: 1, maxContacts: 1, toolFingers: 1, unterminated: 0),
        Fact("SynPS2 Synaptics TouchPad.events", events: 7422, sequences: 45, maxContacts: 1, toolFingers: 1, unterminated: 0),
        Fact("SynPS2 Synaptics TouchPad.fdo48777-reproducer.events", events: 2474, sequences: 2, maxContacts: 1, toolFingers: 1, unterminated: 0),
        Fact("SynPS2 Synaptics TouchPad.hp8470p.edge-scroll-horizontal.events", events: 3541, sequences: 5, maxContacts: 2, toolFingers: 2, unterminated: 0),
        Fact("SynPS2 Synaptics TouchPad.hp8470p.edge-scroll-vertical.events", events: 968, sequences: 1, maxContacts: 1, toolFingers: 1, unterminated: 0),
        Fact("SynPS2 Synaptics TouchPad.hp8470p.two-finger-scroll-horizontal.events", events: 906, sequences: 8, maxContacts: 2, toolFingers: 2, unterminated: 1),
        Fact("SynPS2 Synaptics TouchPad.hp8470p.two-finger-scroll-vertical.events", events: 587, sequences: 1, maxContacts: 1, toolFingers: 1, unterminated: 0),
        Fact("SynPS2 Synaptics TouchPad.leftmove.events", events: 1330, sequences: 1, maxContacts: 1, toolFingers: 1, unterminated: 0),
        Fact("SynPS2 Synaptics TouchPad.two-finger-vert-scroll.events", events: 582, sequences: 2, maxContacts: 2, toolFingers: 2, unterminated: 0),
        Fact("bcm5974.three-finger-click.events", events: 2586, sequences: 0, maxContacts: 0, toolFingers: 3, unterminated: 0),
        Fact("Wacom Cintiq 13HD touch Finger.events", events: 33, sequences: 1, maxContacts: 1, toolFingers: 0, unterminated: 0),
        Fact("Wacom Cintiq 22HDT Finger.events", events: 0, sequences: 0, maxContacts: 0, toolFingers: 0, unterminated: 0),
        Fact("Wacom DTH2242 Finger.events", events: 16593, sequences: 66, maxContacts: 10, toolFingers: 0, unterminated: 0),
        Fact("Wacom ISDv4 E6 Finger.2fg-double-tap.events", events: 21, sequences: 2, maxContacts: 2, toolFingers: 0, unterminated: 0),
        Fact("Wacom ISDv4 E6 Finger.2fg-tap.events", events: 17, sequences: 2, maxContacts: 2, toolFingers: 0, unterminated: 0),
        Fact("Wacom ISDv4 E6 Finger.double-center-circle.events", events: 1137, sequences: 2, maxContacts: 2, toolFingers: 0, unterminated: 0),
        Fact("Wacom ISDv4 E6 Finger.double-center-scroll.events", events: 545, sequences: 2, maxContacts: 2, toolFingers: 0, unterminated: 0),
        Fact("Wacom ISDv4 E6 Finger.double-tap-center.events", events: 20, sequences: 2, maxContacts: 1, toolFingers: 0, unterminated: 0),
        Fact("Wacom ISDv4 E6 Finger.double-top-swipe.events", events: 1144, sequences: 2, maxContacts: 2, toolFingers: 0, unterminated: 0),
        Fact("Wacom ISDv4 E6 Finger.single-center-circle.events", events: 412, sequences: 1, maxContacts: 1, toolFingers: 0, unterminated: 0),
        Fact("Wacom ISDv4 E6 Finger.single-center-scroll.events", events: 239, sequences: 1, maxContacts: 1, toolFingers: 0, unterminated: 0),
        Fact("Wacom ISDv4 E6 Finger.single-tap-center.events", events: 10, sequences: 1, maxContacts: 1, toolFingers: 0, unterminated: 0),
        Fact("Wacom ISDv4 E6 Finger.single-top-swipe.events", events: 441, sequences: 1, maxContacts: 1, toolFingers: 0, unterminated: 0),
        Fact("eGalax Inc. USB TouchController.events", events: 1200, sequences: 0, maxContacts: 0, toolFingers: 0, unterminated: 0),
        Fact("eGalax_eMPIA Technology Inc. PCAP MultiTouch Controller.tap.events", events: 13, sequences: 1, maxContacts: 1, toolFingers: 0, unterminated: 0),
        Fact("dell_canvas_touch.evemu", events: 5363, sequences: 12, maxContacts: 5, toolFingers: 0, unterminated: 0),
    ]
}

/// What a replay through `FrameAssembler` produced.
struct ReplayStats {
    var frames = 0
    var realTouchesBegan = 0
    var synthesizedTouchesBegan = 0
    var maxFingersInFrame = 0
    var cancelled = 0
    var unclosed: Set<TouchID> = []
    var phaseErrors: [String] = []

    static func replay(_ recording: Recording) -> ReplayStats {
        let description = recording.description
        var assembler = FrameAssembler(description: description,
                                       device: DeviceRef(id: 1, name: description.name, kind: description.kind))
        var ids = TouchIDGenerator()
        var stats = ReplayStats()
        var frames: [TouchFrame] = []
        for event in recording.events {
            if let frame = assembler.feed(event, ids: &ids) { frames.append(frame) }
        }
        frames += assembler.finish(at: recording.events.last?.time ?? .zero, ids: &ids)
        for frame in frames { stats.observe(frame) }
        return stats
    }

    mutating func observe(_ frame: TouchFrame) {
        frames += 1
        maxFingersInFrame = max(maxFingersInFrame, frame.activeFingerCount)
        for touch in frame.touches {
            switch touch.phase {
            case .began:
                if touch.isSynthesized { synthesizedTouchesBegan += 1 } else { realTouchesBegan += 1 }
                if !unclosed.insert(touch.id).inserted { phaseErrors.append("\(touch.id) began twice") }
            case .moved, .stationary:
                if !unclosed.contains(touch.id) { phaseErrors.append("\(touch.id) \(touch.phase) before began") }
            case .ended, .cancelled:
                if touch.phase == .cancelled { cancelled += 1 }
                if unclosed.remove(touch.id) == nil { phaseErrors.append("\(touch.id) closed twice") }
            }
        }
    }
}

@Suite struct RecordingReplayTests {
    @Test func corpusIsThere() {
        #expect(Corpus.recordingPaths.count == Fact.all.count)
        #expect(FileManager.default.fileExists(atPath: Corpus.root + "/LICENSE"))
    }

    @Test(arguments: Fact.all)
    func recordingReplays(_ fact: Fact) throws {
        let path = Corpus.path(fact.file)
        guard fact.events > 0 else {
            // Header only (Wacom Cintiq 22HDT): a recording of nothing, 0 events.
            let recordings = try RecordingLoader.load(path: path)
            #expect(recordings.count == 1 && recordings[0].events.isEmpty)
            return
        }
        let recordings = try RecordingLoader.load(path: path)
        try #require(recordings.count == 1)
        let recording = recordings[0]
        #expect(recording.events.count == fact.events)
        let stats = ReplayStats.replay(recording)
        #expect(stats.phaseErrors.isEmpty, "\(stats.phaseErrors.prefix(3))")
        #expect(stats.unclosed.isEmpty, "every touch that began is ended or cancelled")
        switch recording.description.multitouchProtocol {
        case .typeB:
            #expect(stats.realTouchesBegan == fact.sequences, "touches begun vs tracking-id lifetimes")
            // Only sequences open at the end of input are cancelled.
            #expect(stats.cancelled - stats.synthesizedTouchesBegan <= fact.unterminated)
        case .typeA, .singleTouch:
            // The table counts tracking-id lifetimes only (0 here); these counts were checked by hand.
            #expect(stats.realTouchesBegan == Self.touchesWithoutSlots[fact.file])
        }
    }

    /// Touches begun on the protocol-A and single-touch files, which the README's table counts as 0.
    static let touchesWithoutSlots: [String: Int] = [
        "N-Trig MultiTouch.1-finger-drag-NW-SE.events": 1,
        "N-Trig MultiTouch.2-fingers-touch-release.events": 2,
        // BTN_TOUCH goes down twice (taps), BTN_TOOL_FINGER with it.
        "AlpsPS2-ALPS-DualPoint-TouchPad-non-MT.doubletap.events": 2,
        "AlpsPS2-ALPS-DualPoint-TouchPad-non-MT.tap.events": 1,
        // BTN_TOUCH down twice while BTN_TOOL_FINGER stays down.
        "SynPS2 Synaptics TouchPad-fdo23890.events": 2,
        // Protocol A contacts per frame go 1, 2, 1, 3, 2, 1: four fingers land in all; the last frame still
        // reports one contact (touch major 0), so that one is cancelled at the end of input.
        "bcm5974.three-finger-click.events": 4,
        // BTN_TOUCH down twice, but positions come on ABS_Z / ABS_RX, which this device uses instead of
        // ABS_X / ABS_Y: with no position ever reported, its contacts are not touches (docs/input.md).
        "eGalax Inc. USB TouchController.events": 0,
    ]

    @Test func protocolAAndSingleTouchDevicesGiveTouches() throws {
        let expected: [(String, MultitouchProtocol)] = [
            ("N-Trig MultiTouch.1-finger-drag-NW-SE.events", .typeA),
            ("N-Trig MultiTouch.2-fingers-touch-release.events", .typeA),
            ("AlpsPS2-ALPS-DualPoint-TouchPad-non-MT.tap.events", .singleTouch),
            ("AlpsPS2-ALPS-DualPoint-TouchPad-non-MT.doubletap.events", .singleTouch),
        ]
        for (file, proto) in expected {
            let recording = try #require(try RecordingLoader.load(path: Corpus.path(file)).first)
            #expect(recording.description.multitouchProtocol == proto, "\(file)")
            #expect(ReplayStats.replay(recording).realTouchesBegan > 0, "\(file)")
        }
    }

    @Test("a single-touch recording whose position axes never report makes no touch at (0, 0)")
    func positionsNeverReportedMakeNoTouch() throws {
        let recording = try #require(try RecordingLoader.load(path: Corpus.path("eGalax Inc. USB TouchController.events")).first)
        #expect(recording.description.multitouchProtocol == .singleTouch)
        #expect(ReplayStats.replay(recording).realTouchesBegan == 0)
        // The same device, live (its axis values are its state): the contacts are touches at that state.
        var live = recording
        live.description.knowsAxisValues = true
        #expect(ReplayStats.replay(live).realTouchesBegan == 2)
    }

    @Test func nTrigTwoFingersReachTwoTouches() throws {
        let recording = try #require(try RecordingLoader.load(path: Corpus.path("N-Trig MultiTouch.2-fingers-touch-release.events")).first)
        #expect(ReplayStats.replay(recording).maxFingersInFrame == 2)
    }

    @Test func cypressThreeFingerTapReachesThreeFingers() throws {
        let recording = try #require(try RecordingLoader.load(path: Corpus.path("CyPS2 Cypress Trackpad.three_finger_tap.events")).first)
        let stats = ReplayStats.replay(recording)
        #expect(stats.maxFingersInFrame == 3)
        #expect(stats.realTouchesBegan == 2)
        #expect(stats.synthesizedTouchesBegan == 1)
    }

    /// Double taps in the corpus: the gap between lift and second touch decides (the tap
    /// recognizer's `tapInterval`, 300 ms, so a touch's tapCount and the tap recognizer agree).
    /// The GlidePoint's axes have resolution 0: as a touchpad it is assumed 69 × 50 mm (libinput's
    /// assumption), so its two taps (93 ms apart) land about 4.6 mm apart and count as a double tap;
    /// with its real size configured (about 80 × 56 mm for 2000 × 1400 units) they are 5 mm apart.
    /// (At a flat 10 units/mm they would be 13.4 mm apart: no double tap.)
    @Test(arguments: [
        ("Wacom ISDv4 E6 Finger.double-tap-center.events", nil, [1, 2]),             // 140 ms gap
        ("AlpsPS2 ALPS GlidePoint.double-tap.events", nil, [1, 2]),                  // 93 ms, 4.6 mm
        ("AlpsPS2 ALPS GlidePoint.double-tap.events", Point(x: 80, y: 56), [1, 2]),  // 93 ms, 5 mm
        ("AlpsPS2-ALPS-DualPoint-TouchPad-non-MT.doubletap.events", nil, [1, 1]),    // 441 ms gap: too slow
    ] as [(String, Point?, [Int])])
    func doubleTapsCountTaps(file: String, physicalSize: Point?, expected: [Int]) throws {
        let recording = try #require(try RecordingLoader.load(path: Corpus.path(file)).first)
        var assembler = FrameAssembler(description: recording.description,
                                       device: DeviceRef(id: 1, name: "d", kind: recording.description.kind),
                                       surface: SurfaceConfiguration(physicalSize: physicalSize))
        var ids = TouchIDGenerator()
        var tapCounts: [Int] = []
        for event in recording.events {
            if let frame = assembler.feed(event, ids: &ids) {
                tapCounts += frame.touches.filter { $0.phase == .began }.map(\.tapCount)
            }
        }
        #expect(tapCounts == expected)
    }
}
