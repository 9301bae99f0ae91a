import Testing
@testable import GestureCore

/// libinput's pressure-based touch detection on touchpads and its resolution hint (`DeviceQuirks`,
/// docs/input.md, "Device quirks"), as the frame assembler applies them.
@Suite struct TouchPressureTests {
    /// A protocol-B clickpad with ABS_MT_PRESSURE 0...255 and the given quirks.
    static func touchpad(quirks: DeviceQuirks?, pressure: AbsInfo? = AbsInfo(minimum: 0, maximum: 255)) -> EventScript {
        var s = EventScript.protocolB(extra: pressure.map { [.absMTPressure: $0] } ?? [:],
                                      keys: [.btnTouch, .btnToolFinger, .btnLeft])
        s.description.properties = [.pointer, .buttonpad]
        s.description.quirks = quirks
        return s
    }

    @Test func thresholdsComeFromTheQuirkElseTwelveAndTenPercentOfTheAxis() {
        let quirk = DeviceQuirks(pressureRange: .init(begin: 10, end: 8))
        #expect(TouchPressure(Self.touchpad(quirks: quirk).description) == TouchPressure(begin: 10, end: 8))
        // 12 % and 10 % of 0...255: 30 and 25 (libinput's default, truncated as libinput does).
        #expect(TouchPressure(Self.touchpad(quirks: DeviceQuirks()).description) == TouchPressure(begin: 30, end: 25))
        let offset = Self.touchpad(quirks: DeviceQuirks(), pressure: AbsInfo(minimum: 100, maximum: 200))
        #expect(TouchPressure(offset.description) == TouchPressure(begin: 112, end: 110))
    }

    @Test func noThresholdsWithoutQuirksOrPressureOnATouchscreenOrWithAQuirkOfZeroOrOutOfRange() {
        #expect(TouchPressure(Self.touchpad(quirks: nil).description) == nil)
        #expect(TouchPressure(Self.touchpad(quirks: DeviceQuirks(), pressure: nil).description) == nil)
        #expect(TouchPressure(Self.touchpad(quirks: DeviceQuirks(pressureRange: .init(begin: 0, end: 0))).description) == nil)
        #expect(TouchPressure(Self.touchpad(quirks: DeviceQuirks(pressureRange: .init(begin: 300, end: 8))).description) == nil)
        var screen = EventScript.protocolB(extra: [.absMTPressure: AbsInfo(minimum: 0, maximum: 255)])
        screen.description.quirks = DeviceQuirks()
        #expect(TouchPressure(screen.description) == nil)
    }

    /// A contact pressing 4 is no finger; at 10 it becomes one; below 8 it lifts, and pressing 10
    /// again it lands as a new touch (libinput's hovering touch, begun and ended by pressure).
    @Test func aLightContactIsATouchOnlyFromTheBeginPressureAndLiftsBelowTheEndPressure() {
        var s = Self.touchpad(quirks: DeviceQuirks(pressureRange: .init(begin: 10, end: 8)))
        s.down(slot: 0, id: 1, x: 100, y: 100)
        s.abs(.absMTPressure, 4)
        s.report()
        s.move(slot: 0, x: 110, y: 100)
        s.abs(.absMTPressure, 10)
        s.report()
        s.move(slot: 0, x: 120, y: 100)
        s.abs(.absMTPressure, 8)
        s.report()
        s.move(slot: 0, x: 130, y: 100)
        s.abs(.absMTPressure, 7)
        s.report()
        s.move(slot: 0, x: 140, y: 100)
        s.abs(.absMTPressure, 9)
        s.report()
        s.abs(.absMTPressure, 12)
        s.report()
        s.up(slot: 0)
        s.report()
        let frames = s.run()
        #expect(frames.map(\.phases) == [[.began], [.moved], [.ended], [.began], [.ended]])
        #expect(frames[0].touches[0].physicalLocation == Point(x: 11, y: 10))
        #expect(frames[0].touches[0].id != frames[3].touches[0].id)
        #expect(lifecycleProblems(frames).isEmpty)
    }

    @Test func withoutQuirksEveryContactCounts() {
        var s = Self.touchpad(quirks: nil)
        s.down(slot: 0, id: 1, x: 100, y: 100)
        s.abs(.absMTPressure, 1)
        s.report()
        s.up(slot: 0)
        s.report()
        #expect(s.run().map(\.phases) == [[.began], [.ended]])
    }

    /// Axes without resolution take the quirk's units per mm (libinput's `AttrResolutionHint`); axes
    /// with one keep it.
    @Test func theResolutionHintMeasuresAxesWithoutResolution() {
        var s = Self.touchpad(quirks: DeviceQuirks(resolutionHint: .init(x: 31, y: 31)))
        for code in [EventCode.absX, .absY, .absMTPositionX, .absMTPositionY] {
            s.description.absInfo[code]!.resolution = 0
        }
        let hinted = SurfaceMapper(description: s.description, surface: .init())
        #expect(hinted.deviceUnitsPerMM == Point(x: 31, y: 31) && hinted.hasKnownResolution)
        s.description.quirks = nil
        // Without it: libinput's 69 × 50 mm guess for a touchpad.
        let guessed = SurfaceMapper(description: s.description, surface: .init())
        #expect(guessed.deviceUnitsPerMM != Point(x: 31, y: 31) && !guessed.hasKnownResolution)
        let measured = SurfaceMapper(description: Self.touchpad(quirks: DeviceQuirks(resolutionHint: .init(x: 31, y: 31))).description,
                                     surface: .init())
        #expect(measured.deviceUnitsPerMM == Point(x: 10, y: 10))
    }
}
