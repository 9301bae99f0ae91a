import Testing
import GestureCore

/// The live daemon feeds each device read as one batch (`GesturePipeline.feed(_:device:)` over an
/// array); a surface change requested while a finger is down (`set-surface`, `gesturectl rotate`)
/// must apply when that finger lifts there too, exactly as with events fed one by one.
@Suite struct LiveSurfaceBatchTests {
    /// A finger down at (100, 500), a rotation requested while it is down, the lift, then a second
    /// finger at the same place: the touch-began locations the pipeline reports.
    static func beganLocations(batched: Bool) -> [Point] {
        var script = EventScript.protocolB()
        script.down(slot: 0, id: 1, x: 100, y: 500)
        script.report()
        let first = script.events
        script.events = []
        script.up(slot: 0)
        script.report(advancing: 500)
        let lift = script.events
        script.events = []
        script.down(slot: 0, id: 2, x: 100, y: 500)
        script.report()
        script.up(slot: 0)
        script.report()
        let second = script.events

        var pipeline = GesturePipeline(engine: GestureEngine(configuration: EngineConfiguration(root: RegionSpec(id: "screen"), recognizers: [])), emitsAllTouches: true)
        pipeline.addDevice(script.description, ref: DeviceRef(id: 1, name: "screen", kind: .touchscreen),
                           surface: SurfaceConfiguration())
        var out: [EngineOutput] = []
        func feed(_ events: [RawEvent]) {
            if batched {
                out += pipeline.feed(events, device: 1)
            } else {
                for event in events { out += pipeline.feed(event, device: 1) }
            }
        }
        feed(first)
        pipeline.setSurface(SurfaceConfiguration(rotation: .clockwise90), device: 1)
        feed(lift)
        feed(second)
        return out.compactMap { if case .touch(let t) = $0, t.phase == .began { t.location } else { nil } }
    }

    @Test func aRotationRequestedDuringATouchAppliesAtItsLiftWhenReadsAreBatched() {
        let oneByOne = Self.beganLocations(batched: false)
        #expect(oneByOne.count == 2)
        // The rotation took effect for the second touch.
        #expect(oneByOne.first != oneByOne.last, "\(oneByOne)")
        #expect(Self.beganLocations(batched: true) == oneByOne)
    }
}
