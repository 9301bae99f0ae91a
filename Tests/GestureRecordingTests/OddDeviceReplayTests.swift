import Foundation
import GestureCore
import Testing
@testable import GestureRecording

/// Devices that report in odd ways, replayed from real recordings: a controller whose position comes
/// on other axes, and a recording begun mid-session.
@Suite struct OddDeviceReplayTests {
    static let derived = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/derived").path

    /// The touches that begin in `recording`: when and where (mm).
    static func began(_ recording: Recording, surface: SurfaceConfiguration = .init()) -> [(time: Timestamp, at: Point)] {
        var assembler = FrameAssembler(description: recording.description,
                                       device: DeviceRef(id: 0, name: recording.description.name, kind: .touchscreen),
                                       surface: surface)
        var ids = TouchIDGenerator()
        var result: [(time: Timestamp, at: Point)] = []
        for event in recording.events {
            guard let frame = assembler.feed(event, ids: &ids) else { continue }
            for touch in frame.touches where touch.phase == .began { result.append((frame.time, touch.physicalLocation)) }
        }
        return result
    }

    @Test("a recording cut mid-session begins each touch where its position is known, never where nobody reported it")
    func cutMidSession() throws {
        let whole = try #require(try RecordingLoader.load(path: Corpus.path("Atmel maXTouch Touchscreen.1-finger-fast-taps.events")).first)
        let cut = try #require(try RecordingLoader.load(path: Self.derived + "/Atmel maXTouch Touchscreen.fast-taps-from-0.85s.evemu").first)
        let start = try #require(cut.events.first?.time)
        let expected = Self.began(whole).filter { $0.time >= start }
        let touches = Self.began(cut)
        #expect(expected.count == 5)
        // The first tap after the cut sends only its y (its x did not change since the tap before):
        // its x is unknown, so it makes no touch; every other touch is exactly where the whole
        // recording has it (a y kept from that first tap, a y known only there).
        #expect(touches.map(\.time) == expected.dropFirst().map(\.time))
        for touch in touches {
            #expect(expected.contains { $0.time == touch.time && $0.at == touch.at }, "touch at \(touch.at) at \(touch.time)")
        }
    }

    @Test("the eGalax controller gives its touches on ABS_Z / ABS_RX with `axes`, and says why it gives none without")
    func eGalaxAxes() throws {
        let recording = try #require(try RecordingLoader.load(path: Corpus.path("eGalax Inc. USB TouchController.events")).first)
        #expect(Self.began(recording).isEmpty)
        let surface = SurfaceConfiguration(axes: PositionAxes(x: EventCode(0x02), y: EventCode(0x03)))
        let touches = Self.began(recording, surface: surface)
        #expect(touches.count == 2)
        // The first press: ABS_Z 1909, ABS_RX 2123 on 30…4040 and 60…4035, 10 units per mm.
        #expect(touches.first?.at == Point(x: (1909.0 - 30) / 10, y: (2123.0 - 60) / 10))

        var assembler = FrameAssembler(description: recording.description,
                                       device: DeviceRef(id: 0, name: recording.description.name, kind: .touchscreen))
        var ids = TouchIDGenerator()
        for event in recording.events { _ = assembler.feed(event, ids: &ids) }
        let activity = assembler.axisActivity
        #expect(activity.contactsWithoutPosition == 2)
        #expect(activity.axes(of: recording.description).moved == [EventCode(0x02), EventCode(0x03)])
        #expect(activity.positionProblem(description: recording.description, remapped: nil)?
            .contains("try `axes: { x: ABS_Z, y: ABS_RX }`") == true)
    }
}
