#if canImport(Glibc)
import Glibc
#endif
import GestureCore
import Testing

/// What a device leaves behind in the pipeline once it is gone, and what a touch's tap count
/// follows.
@Suite struct DeviceLifecycleTests {
    /// A tap, a double tap waiting on it and a pan on one full-screen region.
    static let configuration = EngineConfiguration(root: RegionSpec(id: "screen"), recognizers: [
        RecognizerSpec(id: "tap", kind: .tap, region: "screen", requireToFail: ["double-tap"]),
        RecognizerSpec(id: "double-tap", kind: .tap, region: "screen", parameters: { var p = RecognizerParameters(); p.taps = 2; return p }()),
        RecognizerSpec(id: "pan", kind: .pan, region: "screen"),
    ])

    /// One plug / use / unplug cycle of device `id`: a finger goes down and drags 30 mm (a pan
    /// begins), and the device is unplugged with the finger still down.
    static func plugDragAndUnplug(_ pipeline: inout GesturePipeline, id: Int, at start: Int64) -> [EngineOutput] {
        var script = EventScript.protocolB()
        script.now = start
        script.down(slot: 0, id: 1, x: 100, y: 100)
        script.report()
        for step in 1...3 {
            script.move(slot: 0, x: 100 + Int32(step) * 100, y: 100)
            script.report()
        }
        pipeline.addDevice(script.description, ref: DeviceRef(id: id, name: "plugged \(id)", kind: .touchscreen),
                           surface: SurfaceConfiguration())
        var out: [EngineOutput] = []
        for event in script.events { out += pipeline.feed(event, device: id) }
        out += pipeline.removeDevice(id: id, at: Timestamp(microseconds: script.now))
        return out
    }

    @Test func unpluggingADeviceDropsItsEngineLane() {
        var pipeline = GesturePipeline(engine: GestureEngine(configuration: Self.configuration))
        #expect(pipeline.engine.laneCount == 0)
        var states: [GestureState] = []
        for id in 0..<1000 {
            let out = Self.plugDragAndUnplug(&pipeline, id: id, at: Int64(id) * 1_000_000 + 1_000_000)
            if id == 0 {
                states = out.compactMap { if case .gesture(let g) = $0 { g.state } else { nil } }
            }
        }
        // Each cycle really began a pan that the unplug cancelled.
        #expect(states.first == .began)
        #expect(states.last == .cancelled)
        #expect(pipeline.engine.laneCount == 0)
        #expect(pipeline.deviceCount == 0)
        #expect(pipeline.nextDeadline == nil)
    }

    @Test func aLaneStillDecidingStaysUntilItsDeadlineThenGoes() {
        var pipeline = GesturePipeline(engine: GestureEngine(configuration: Self.configuration))
        var script = EventScript.protocolB()
        script.down(slot: 0, id: 1, x: 500, y: 500)
        script.report(advancing: 50)
        script.up(slot: 0)
        script.report()
        pipeline.addDevice(script.description, ref: DeviceRef(id: 3, name: "tapped", kind: .touchscreen),
                           surface: SurfaceConfiguration())
        for event in script.events { _ = pipeline.feed(event, device: 3) }
        // Unplugged while the single tap waits out the double tap's interval.
        _ = pipeline.removeDevice(id: 3, at: Timestamp(microseconds: script.now))
        #expect(pipeline.engine.laneCount == 1)
        let deadline = try! #require(pipeline.nextDeadline)
        let out = pipeline.advance(to: deadline)
        let recognized = out.compactMap { if case .gesture(let g) = $0 { g.gesture } else { nil } }
        #expect(recognized == ["tap"], "the pending tap is still decided")
        #expect(pipeline.engine.laneCount == 0)
    }

    /// Plugs and unplugs 1,000 times in a child process (so no other test's allocations count) and
    /// compares its resident memory before and after: what a device cost is given back. A lane
    /// kept per device would grow it by megabytes.
    @Test func memoryIsBackWhereItStartedAfterAThousandHotplugs() async throws {
        let result = try await #require(processExitsWith: .success, observing: [\.standardOutputContent]) {
            var pipeline = GesturePipeline(engine: GestureEngine(configuration: DeviceLifecycleTests.configuration))
            // One cycle first: buffers that grow once and are then reused are not a leak.
            _ = DeviceLifecycleTests.plugDragAndUnplug(&pipeline, id: 0, at: 1_000_000)
            // Every cycle here names its device anew ("plugged 1", "plugged 2", …). Names are kept
            // once per process (`InternedString`, its own test below), so they are kept before the
            // measure: what is measured is what a hotplug leaves, not the names' table.
            for id in 1...1000 { _ = InternedString("plugged \(id)") }
            let before = residentKilobytes()
            for id in 1...1000 {
                _ = DeviceLifecycleTests.plugDragAndUnplug(&pipeline, id: id, at: Int64(id) * 1_000_000 + 1_000_000)
            }
            print("grown-kB \(residentKilobytes() - before) lanes \(pipeline.engine.laneCount)")
        }
        let words = String(decoding: result.standardOutputContent, as: UTF8.self).split(whereSeparator: \.isWhitespace)
        let grown = try #require(words.count == 4 ? Int(words[1]) : nil, "child said: \(words)")
        #expect(words[3] == "0", "lanes held after 1,000 hotplugs")
        // Allocator noise stays within a few pages; 1,000 retained lanes are megabytes.
        #expect(grown <= 256, "resident memory grew by \(grown) kB over 1,000 hotplugs")
    }

    /// A device plugged in again under its name (the kernel's name for it does not change) takes no
    /// new entry in the names' table, however often it comes back.
    @Test func aDevicePluggedInAgainTakesNoNewName() {
        var pipeline = GesturePipeline(engine: GestureEngine(configuration: Self.configuration))
        var script = EventScript.protocolB()
        script.down(slot: 0, id: 1, x: 100, y: 100)
        script.report()
        pipeline.addDevice(script.description, ref: DeviceRef(id: 0, name: "replugged pad", kind: .touchpad),
                           surface: SurfaceConfiguration())
        _ = pipeline.removeDevice(id: 0, at: Timestamp(microseconds: 1))
        let name = InternedString("replugged pad")
        var devices: Set<InternedString> = []
        for id in 1...1000 {
            let ref = DeviceRef(id: id, name: "replugged pad", kind: .touchpad)
            devices.insert(ref.internedName)
            pipeline.addDevice(script.description, ref: ref, surface: SurfaceConfiguration())
            for event in script.events {
                for case .gesture(let g) in pipeline.feed(event, device: id) { devices.insert(g.deviceName) }
            }
            _ = pipeline.removeDevice(id: id, at: Timestamp(microseconds: Int64(id) * 1_000_000))
        }
        // Every plug, and every event of it, carried the one entry the name has.
        #expect(devices == [name])
        #expect(InternedString.keeps("replugged pad"))
        #expect(pipeline.engine.laneCount == 0)
    }
}

/// This process's resident set (kB), from /proc/self/statm.
private func residentKilobytes() -> Int {
    guard let file = fopen("/proc/self/statm", "r") else { return -1 }
    defer { fclose(file) }
    var line = [UInt8](repeating: 0, count: 128)
    guard line.withUnsafeMutableBufferPointer({ buffer in
        buffer.withMemoryRebound(to: CChar.self) { fgets($0.baseAddress, Int32($0.count), file) }
    }) != nil else { return -1 }
    let fields = String(decoding: line.prefix { $0 != 0 }, as: UTF8.self).split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return -1 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE))) / 1024
}
