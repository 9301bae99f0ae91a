import Testing
@testable import GestureCore

/// A coordinate never reported is unknown (a recording begun mid-session: the kernel sends only values
/// that changed): the touch begins where its position is first known, or takes the single-touch
/// emulation's value; never a position nobody reported.
@Suite struct UnknownCoordinateTests {
    @Test func aSlotWithoutXBeginsWhereItsXIsFirstKnown() {
        var s = EventScript.protocolB()
        s.abs(.absMTSlot, 0)
        s.abs(.absMTTrackingID, 5)
        s.abs(.absMTPositionY, 400) // x unchanged since before the recording: not sent
        s.report()
        s.abs(.absMTPositionY, 420)
        s.report()
        s.abs(.absMTPositionX, 250)
        s.report()
        s.up(slot: 0)
        s.report()
        let frames = s.run()
        #expect(frames.map(\.phases) == [[.began], [.ended]])
        #expect(frames.first?.touches.first?.physicalLocation == Point(x: 25, y: 42))
    }

    @Test func aSlotWithoutXTakesTheSingleTouchEmulationsX() {
        var s = EventScript.protocolB()
        s.abs(.absMTSlot, 0)
        s.abs(.absMTTrackingID, 5)
        s.abs(.absMTPositionY, 400)
        s.abs(.absX, 300)
        s.abs(.absY, 400)
        s.report()
        let frames = s.run()
        #expect(frames.first?.phases == [.began])
        #expect(frames.first?.touches.first?.physicalLocation == Point(x: 30, y: 40))
    }

    @Test func aSlotWhoseXNobodyReportedMakesNoTouch() {
        var s = EventScript.protocolB()
        s.abs(.absMTSlot, 0)
        s.abs(.absMTTrackingID, 5)
        s.abs(.absMTPositionY, 400)
        s.report()
        s.up(slot: 0)
        s.report()
        #expect(s.run().isEmpty)
    }

    @Test func aSingleTouchContactWithOnlyYReportedWaitsForX() {
        var s = EventScript.singleTouch()
        s.key(.btnTouch, true)
        s.abs(.absY, 200)
        s.report()
        s.abs(.absX, 100)
        s.report()
        s.key(.btnTouch, false)
        s.report()
        let frames = s.run()
        #expect(frames.map(\.phases) == [[.began], [.ended]])
        #expect(frames.first?.touches.first?.physicalLocation == Point(x: 10, y: 20))
    }

    @Test func aLiveDeviceKnowsItsStateSoALegacyValueIsKnownFromTheStart() {
        var s = EventScript.protocolB()
        s.description.absInfo[.absX]?.value = 600
        s.description.absInfo[.absY]?.value = 700
        s.description.knowsAxisValues = true
        s.abs(.absMTSlot, 0)
        s.abs(.absMTTrackingID, 5)
        s.report()
        let frames = s.run()
        #expect(frames.first?.touches.first?.physicalLocation == Point(x: 60, y: 70))
    }

    @Test func contactsWithoutPositionAreCounted() {
        var s = EventScript.protocolB()
        s.abs(.absMTSlot, 0)
        s.abs(.absMTTrackingID, 5)
        s.abs(.absMTPositionY, 400)
        s.report()
        s.report()
        var assembler = FrameAssembler(description: s.description, device: DeviceRef(id: 1, name: "b", kind: .touchscreen))
        var ids = TouchIDGenerator()
        for event in s.events { _ = assembler.feed(event, ids: &ids) }
        #expect(assembler.axisActivity.contactsWithoutPosition == 1)
        #expect(assembler.axisActivity.hasReported(.absMTPositionY))
        #expect(!assembler.axisActivity.hasReported(.absMTPositionX))
    }
}

/// `axes:`: a device whose position comes on other axes (an eGalax controller on ABS_Z / ABS_RX).
@Suite struct PositionAxesTests {
    static func eGalaxLike() -> EventScript {
        let abs: [EventCode: AbsInfo] = [
            .absX: AbsInfo(minimum: 42, maximum: 1981), .absY: AbsInfo(minimum: 42, maximum: 1981),
            EventCode(0x02): AbsInfo(minimum: 30, maximum: 4040), EventCode(0x03): AbsInfo(minimum: 60, maximum: 4035),
        ]
        return EventScript(description: DeviceDescription(
            name: "eGalax-like", codes: [.abs: Set(abs.keys), .key: [.btnTouch, .btnToolPen]], absInfo: abs))
    }

    static func tap(_ s: inout EventScript) {
        s.key(.btnTouch, true)
        s.abs(EventCode(0x02), 1030)
        s.abs(EventCode(0x03), 2060)
        s.report()
        s.abs(EventCode(0x02), 1040)
        s.report()
        s.key(.btnTouch, false)
        s.report()
    }

    @Test func withoutTheSettingNoTouchAndTheProblemIsNamed() throws {
        var s = Self.eGalaxLike()
        Self.tap(&s)
        #expect(s.run().isEmpty)
        var assembler = FrameAssembler(description: s.description, device: DeviceRef(id: 1, name: "e", kind: .touchscreen))
        var ids = TouchIDGenerator()
        for event in s.events { _ = assembler.feed(event, ids: &ids) }
        let problem = try #require(assembler.axisActivity.positionProblem(description: s.description, remapped: nil))
        #expect(problem == "1 contact with no position: ABS_X, ABS_Y never moved; ABS_Z, ABS_RX moved: the position "
                + "may be there (a broken report descriptor); try `axes: { x: ABS_Z, y: ABS_RX }` in a `surfaces:` "
                + "rule for this device (docs/input.md)")
        #expect(assembler.axisActivity.axes(of: s.description).still == [.absX, .absY])
    }

    @Test func withTheSettingTheTouchesAreWhereTheAxesSay() throws {
        var s = Self.eGalaxLike()
        Self.tap(&s)
        let surface = SurfaceConfiguration(axes: PositionAxes(x: EventCode(0x02), y: EventCode(0x03)))
        let frames = s.run(surface: surface)
        try #require(frames.map(\.phases) == [[.began], [.moved], [.ended]])
        // 10 units per mm (no resolution): (1030 − 30) / 10, (2060 − 60) / 10.
        #expect(frames.first?.touches.first?.physicalLocation == Point(x: 100, y: 200))
        #expect(frames[1].touches.first?.physicalLocation == Point(x: 101, y: 200))
        #expect(frames.first?.surfaceSize == Point(x: 401, y: 397.5))
    }

    @Test func theReplacedAxesAreIgnored() {
        var s = Self.eGalaxLike()
        s.key(.btnTouch, true)
        s.abs(EventCode(0x02), 1030)
        s.abs(EventCode(0x03), 2060)
        s.abs(.absX, 500)
        s.abs(.absY, 500)
        s.report()
        let surface = SurfaceConfiguration(axes: PositionAxes(x: EventCode(0x02), y: EventCode(0x03)))
        #expect(s.run(surface: surface).first?.touches.first?.physicalLocation == Point(x: 100, y: 200))
    }

    @Test func axisNamesBothWays() {
        #expect(AbsoluteAxisNames.name(of: EventCode(0x03)) == "ABS_RX")
        #expect(AbsoluteAxisNames.code(named: "ABS_MT_POSITION_X") == .absMTPositionX)
        #expect(AbsoluteAxisNames.name(of: EventCode(0x2a)) == "ABS_0x2a")
        #expect(AbsoluteAxisNames.code(named: "ABS_NOPE") == nil)
    }
}
