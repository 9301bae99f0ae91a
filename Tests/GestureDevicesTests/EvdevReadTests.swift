import Testing
import GestureCore
import GesturePosix
@testable import GestureDevices

/// A device whose libevdev answers are scripted: each `nextEvent` takes the next answer and checks
/// the read mode the device layer asked in. Once the script is done it answers EAGAIN.
final class ScriptedEvdev: EvdevEventSource {
    var script: [(mode: EvdevReadMode, answer: Result<EvdevNextEvent, Errno>)]
    private(set) var calls = 0
    private(set) var wrongModes: [String] = []
    var grabAnswer: Result<Void, Errno> = .success(())

    init(_ script: [(mode: EvdevReadMode, answer: Result<EvdevNextEvent, Errno>)]) { self.script = script }

    func nextEvent(_ mode: EvdevReadMode) -> Result<EvdevNextEvent, Errno> {
        calls += 1
        guard !script.isEmpty else { return .failure(.wouldBlock) }
        let next = script.removeFirst()
        if next.mode != mode { wrongModes.append("call \(calls): asked in \(mode), script expected \(next.mode)") }
        return next.answer
    }
    func useMonotonicClock() -> Result<Void, Errno> { .success(()) }
    func grab(_ on: Bool) -> Result<Void, Errno> { grabAnswer }
}

/// The device read loop over a scripted libevdev: EAGAIN, EINTR, ENODEV and the SYN_DROPPED resync,
/// in process (the VM test covers the same paths through a real kernel).
@Suite struct EvdevReadTests {
    static let description: DeviceDescription = {
        let abs: [EventCode: AbsInfo] = [
            .absX: AbsInfo(minimum: 0, maximum: 1000, resolution: 10),
            .absY: AbsInfo(minimum: 0, maximum: 1000, resolution: 10),
            .absMTSlot: AbsInfo(minimum: 0, maximum: 4),
            .absMTPositionX: AbsInfo(minimum: 0, maximum: 1000, resolution: 10),
            .absMTPositionY: AbsInfo(minimum: 0, maximum: 1000, resolution: 10),
            .absMTTrackingID: AbsInfo(minimum: 0, maximum: 65535),
        ]
        return DeviceDescription(name: "scripted", properties: [.direct],
                                 codes: [.abs: Set(abs.keys), .key: [.btnTouch]], absInfo: abs)
    }()

    static func event(_ ms: Int64, _ type: EventType, _ code: EventCode, _ value: Int32) -> RawEvent {
        RawEvent(time: Timestamp(microseconds: ms * 1000), type: type, code: code, value: value)
    }
    static func abs(_ ms: Int64, _ code: EventCode, _ value: Int32) -> RawEvent { event(ms, .abs, code, value) }
    static func report(_ ms: Int64) -> RawEvent { event(ms, .syn, .synReport, 0) }

    func device(_ source: ScriptedEvdev) -> EvdevDevice {
        EvdevDevice(path: "/dev/input/event99", fd: FileDescriptor(rawValue: 99), description: EvdevReadTests.description, source: source)
    }

    @Test func readsEverythingPendingUntilEAGAIN() {
        let frame = [Self.abs(1, .absMTSlot, 0), Self.abs(1, .absMTTrackingID, 5), Self.abs(1, .absMTPositionX, 10), Self.report(1)]
        let source = ScriptedEvdev(frame.map { (.normal, .success(.event($0))) } + [(.normal, .failure(.wouldBlock))])
        var events: [RawEvent] = []
        #expect(device(source).read(into: &events) == .drained)
        #expect(events == frame)
        #expect(source.wrongModes.isEmpty, "\(source.wrongModes)")
    }

    @Test func anInterruptedReadIsRetriedAndLosesNothing() {
        let a = Self.abs(1, .absMTPositionX, 10)
        let b = Self.report(1)
        let source = ScriptedEvdev([(.normal, .failure(.interrupted)), (.normal, .success(.event(a))),
                                    (.normal, .failure(.interrupted)), (.normal, .failure(.interrupted)),
                                    (.normal, .success(.event(b)))])
        var events: [RawEvent] = []
        #expect(device(source).read(into: &events) == .drained)
        #expect(events == [a, b])
        #expect(source.calls == 6)  // five scripted answers, then EAGAIN
    }

    @Test func anUnpluggedDeviceIsGoneAndKeepsWhatCameBefore() {
        let a = Self.abs(1, .absMTPositionX, 10)
        let source = ScriptedEvdev([(.normal, .success(.event(a))), (.normal, .failure(.noDevice))])
        var events: [RawEvent] = []
        let status = device(source).read(into: &events)
        #expect(status == .gone(SystemCallError("libevdev_next_event", errno: .noDevice, subject: "/dev/input/event99")))
        #expect(events == [a])
        if case .gone(let error) = status { #expect(error.description.contains("/dev/input/event99")) }
    }

    @Test func aFailedGrabNamesTheDevice() {
        let source = ScriptedEvdev([])
        source.grabAnswer = .failure(Errno(rawValue: 16))  // EBUSY: another process holds the grab
        let device = device(source)
        #expect(throws: SystemCallError("libevdev_grab", code: 16, subject: "/dev/input/event99")) { try device.grab(true) }
        #expect(!device.isGrabbed)
    }

    /// SYN_DROPPED: the device layer closes the dropped window with a SYN_REPORT, switches libevdev
    /// to sync mode for the resync delta until EAGAIN, then reads normally again. Through the real
    /// pipeline, the finger lifted during the drop is cancelled and never comes back, and the next
    /// drag is a touch of its own.
    @Test func synDroppedIsFollowedByTheResyncDeltaThenNormalReading() {
        let down = [Self.abs(1, .absMTSlot, 0), Self.abs(1, .absMTTrackingID, 1), Self.abs(1, .absMTPositionX, 100),
                    Self.abs(1, .absMTPositionY, 100), Self.report(1)]
        let dropped = Self.event(20, .syn, .synDropped, 0)
        let delta = [Self.abs(30, .absMTSlot, 0), Self.abs(30, .absMTTrackingID, -1), Self.report(30)]
        let drag = [Self.abs(40, .absMTTrackingID, 2), Self.abs(40, .absMTPositionX, 300), Self.abs(40, .absMTPositionY, 300),
                    Self.report(40), Self.abs(50, .absMTPositionX, 400), Self.report(50),
                    Self.abs(60, .absMTTrackingID, -1), Self.report(60)]
        var script: [(mode: EvdevReadMode, answer: Result<EvdevNextEvent, Errno>)] = down.map { (.normal, .success(.event($0))) }
        script.append((.normal, .success(.resync(dropped))))
        script += delta.map { (.sync, .success(.resync($0))) }
        script.append((.sync, .failure(.wouldBlock)))       // end of the delta
        script += drag.map { (.normal, .success(.event($0))) }
        script.append((.normal, .failure(.wouldBlock)))
        let source = ScriptedEvdev(script)
        var events: [RawEvent] = []
        let scripted = device(source)
        #expect(scripted.droppedCount == 0)
        #expect(scripted.read(into: &events) == .drained)
        #expect(source.wrongModes.isEmpty, "\(source.wrongModes)")
        #expect(events == down + [dropped, Self.report(20)] + delta + drag)
        // The daemon logs the loss when this count moves (the sync delta's events do not count).
        #expect(scripted.droppedCount == 1)

        var pipeline = GesturePipeline(engine: GestureEngine(configuration: EngineConfiguration(root: RegionSpec(id: "screen"), recognizers: [])), emitsAllTouches: true)
        pipeline.addDevice(EvdevReadTests.description, ref: DeviceRef(id: 0, name: "scripted", kind: .touchscreen),
                           surface: SurfaceConfiguration())
        var touches: [(UInt64, TouchPhase)] = []
        for event in events {
            for case .touch(let t) in pipeline.feed(event, device: 0) { touches.append((t.id.rawValue, t.phase)) }
        }
        #expect(touches.map(\.1) == [.began, .cancelled, .began, .moved, .ended])
        #expect(touches[0].0 == touches[1].0)
        #expect(touches[2].0 != touches[0].0)
    }
}
