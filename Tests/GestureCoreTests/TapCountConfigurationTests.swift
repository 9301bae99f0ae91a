import GestureCore
import Testing

/// A touch's `tapCount` follows the configured tap recognizers' interval and distance, not the
/// built-in defaults (300 ms, 10 mm).
@Suite struct TapCountConfigurationTests {
    static func engine(interval: Double, distance: Double, kind: RecognizerKind = .tap, taps: Int = 2) -> EngineConfiguration {
        var p = RecognizerParameters()
        p.taps = taps
        p.tapInterval = interval
        p.tapDistance = distance
        return EngineConfiguration(root: RegionSpec(id: "screen"),
                                   recognizers: [RecognizerSpec(id: "double", kind: kind, region: "screen", parameters: p)])
    }

    /// Tap counts of the touches going down: two 50 ms taps `gap` ms apart, `dx` device units apart
    /// (10 units/mm).
    static func tapCounts(_ configuration: EngineConfiguration, gapMS: Int64, dx: Int32) -> [Int] {
        var script = EventScript.protocolB()
        script.down(slot: 0, id: 1, x: 500, y: 500)
        script.report(advancing: 50)
        script.up(slot: 0)
        script.report(advancing: gapMS)
        script.down(slot: 0, id: 2, x: 500 + dx, y: 500)
        script.report(advancing: 50)
        script.up(slot: 0)
        script.report()
        var pipeline = GesturePipeline(engine: GestureEngine(configuration: configuration), emitsAllTouches: true)
        pipeline.addDevice(script.description, ref: DeviceRef(id: 1, name: "screen", kind: .touchscreen),
                           surface: SurfaceConfiguration())
        var out: [EngineOutput] = []
        for event in script.events { out += pipeline.feed(event, device: 1) }
        return out.compactMap { if case .touch(let t) = $0, t.phase == .began { t.tapCount } else { nil } }
    }

    @Test func aLongerConfiguredIntervalCountsASlowerSecondTap() {
        // 400 ms between the taps: beyond the 300 ms default, within the configured 500 ms.
        #expect(Self.tapCounts(Self.engine(interval: 500, distance: 10), gapMS: 400, dx: 0) == [1, 2])
        #expect(Self.tapCounts(Self.engine(interval: 300, distance: 10), gapMS: 400, dx: 0) == [1, 1])
    }

    @Test func aShorterConfiguredIntervalStartsOver() {
        #expect(Self.tapCounts(Self.engine(interval: 150, distance: 10), gapMS: 200, dx: 0) == [1, 1])
    }

    @Test func aWiderConfiguredDistanceCountsAFartherSecondTap() {
        // 15 mm apart: beyond the 10 mm default, within the configured 20 mm.
        #expect(Self.tapCounts(Self.engine(interval: 300, distance: 20), gapMS: 100, dx: 150) == [1, 2])
        #expect(Self.tapCounts(Self.engine(interval: 300, distance: 5), gapMS: 100, dx: 80) == [1, 1])
    }

    @Test func theWidestOfSeveralTapRecognizersWinsAndOthersDoNotCount() {
        var configuration = Self.engine(interval: 500, distance: 10)
        var pan = RecognizerParameters()
        pan.tapInterval = 900  // not a tap recognizer: ignored
        configuration.recognizers.append(RecognizerSpec(id: "pan", kind: .pan, region: "screen", parameters: pan))
        var narrow = RecognizerParameters()
        narrow.tapInterval = 200
        configuration.recognizers.append(RecognizerSpec(id: "quick", kind: .tap, region: "screen", parameters: narrow))
        #expect(configuration.touchTapCountWindow.interval == 500)
        #expect(Self.tapCounts(configuration, gapMS: 400, dx: 0) == [1, 2])
        #expect(Self.tapCounts(configuration, gapMS: 600, dx: 0) == [1, 1])
    }

    @Test func withoutTapRecognizersTheDefaultsApply() {
        let configuration = EngineConfiguration(root: RegionSpec(id: "screen"),
                                                recognizers: [RecognizerSpec(id: "pan", kind: .pan, region: "screen")])
        #expect(configuration.touchTapCountWindow.interval == RecognizerParameters().tapInterval)
        #expect(configuration.touchTapCountWindow.distance == RecognizerParameters().tapDistance)
        #expect(Self.tapCounts(configuration, gapMS: 250, dx: 0) == [1, 2])
    }
}
