import Testing
import GestureCore
import GesturePosix
@testable import GestureDevices

/// A device whose kernel and libevdev answers are scripted: each `readEvents` takes the next
/// answer (a batch of events, at most `capacity` of them, or an errno); once the script is done it
/// answers EAGAIN. `currentState` answers `state`, and counts the calls.
final class ScriptedEvdev: EvdevEventSource {
    var reads: [Result<[RawEvent], Errno>]
    var state: Result<[RawEvent], Errno> = .success([])
    private(set) var calls = 0
    private(set) var stateReads: [Timestamp] = []
    private(set) var oversizedBatches: [String] = []
    var grabAnswer: Result<Void, Errno> = .success(())

    init(_ reads: [Result<[RawEvent], Errno>]) { self.reads = reads }

    func readEvents(into events: inout [RawEvent], capacity: Int) -> Result<Int, Errno> {
        calls += 1
        guard !reads.isEmpty else { return .failure(.wouldBlock) }
        switch reads.removeFirst() {
        case .success(let batch):
            if batch.count > capacity { oversizedBatches.append("call \(calls): \(batch.count) events for a capacity of \(capacity)") }
            events += batch.prefix(capacity)
            return .success(min(batch.count, capacity))
        case .failure(let error):
            return .failure(error)
        }
    }
    func currentState(at time: Timestamp) -> Result<[RawEvent], Errno> {
        stateReads.append(time)
        return state
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

    /// `count` position events, one frame's worth of filler.
    static func moves(_ ms: Int64, _ count: Int) -> [RawEvent] {
        (0..<count).map { Self.abs(ms, .absMTPositionX, Int32($0)) }
    }

    @Test func aShortReadMeansTheQueueIsEmpty() {
        let frame = [Self.abs(1, .absMTSlot, 0), Self.abs(1, .absMTTrackingID, 5), Self.abs(1, .absMTPositionX, 10), Self.report(1)]
        let later = [Self.abs(2, .absMTPositionX, 20), Self.report(2)]
        let source = ScriptedEvdev([.success(frame), .success(later)])
        var events: [RawEvent] = []
        #expect(device(source).read(into: &events) == .drained)
        #expect(events == frame)
        // One read per frame: the second batch came later and waits for the next wake-up.
        #expect(source.calls == 1)
        #expect(source.reads.count == 1)
    }

    @Test func aFullReadIsFollowedByAnotherUntilOneComesBackShortOrEAGAIN() {
        let capacity = EvdevDevice.readCapacity
        let first = Self.moves(1, capacity)
        let second = Self.moves(2, capacity - 1) + [Self.report(2)]
        let source = ScriptedEvdev([.success(first), .success(second)])
        var events: [RawEvent] = []
        #expect(device(source).read(into: &events) == .drained)
        #expect(events == first + second)
        #expect(source.calls == 3)  // two full reads, then EAGAIN
        #expect(source.oversizedBatches.isEmpty, "\(source.oversizedBatches)")
    }

    @Test func anInterruptedReadIsRetriedAndLosesNothing() {
        let a = Self.moves(1, EvdevDevice.readCapacity)
        let b = [Self.report(1)]
        let source = ScriptedEvdev([.failure(.interrupted), .success(a), .failure(.interrupted), .failure(.interrupted), .success(b)])
        var events: [RawEvent] = []
        #expect(device(source).read(into: &events) == .drained)
        #expect(events == a + b)
        #expect(source.calls == 5)  // b came back short: nothing more was asked
    }

    @Test func anUnpluggedDeviceIsGoneAndKeepsWhatCameBefore() {
        let a = Self.moves(1, EvdevDevice.readCapacity)
        let source = ScriptedEvdev([.success(a), .failure(.noDevice)])
        var events: [RawEvent] = []
        let status = device(source).read(into: &events)
        #expect(status == .gone(SystemCallError("read", errno: .noDevice, subject: "/dev/input/event99")))
        #expect(events == a)
        if case .gone(let error) = status { #expect(error.description.contains("/dev/input/event99")) }
    }

    @Test func aFailedGrabNamesTheDevice() {
        let source = ScriptedEvdev([])
        source.grabAnswer = .failure(Errno(rawValue: 16))  // EBUSY: another process holds the grab
        let device = device(source)
        #expect(throws: SystemCallError("libevdev_grab", code: 16, subject: "/dev/input/event99")) { try device.grab(true) }
        #expect(!device.isGrabbed)
    }

    /// The scripted device's state as the real source builds it: `active` maps a slot to its
    /// tracking id and position; every other slot is empty.
    static func state(_ ms: Int64, active: [Int: (id: Int32, x: Int32, y: Int32)], touching: Bool) -> [RawEvent] {
        DeviceStateFrame(description: description).events(
            at: Timestamp(microseconds: ms * 1000), slotCount: 5, currentSlot: Int32(active.keys.max() ?? 0),
            slotValue: { slot, code in
                guard let contact = active[slot] else { return code == .absMTTrackingID ? -1 : 0 }
                switch code {
                case .absMTTrackingID: return contact.id
                case .absMTPositionX: return contact.x
                case .absMTPositionY: return contact.y
                default: return 0
                }
            },
            absoluteValue: { _ in 0 }, keyValue: { _ in touching ? 1 : 0 })
    }

    /// Reads `source` three times, as three wake-ups (the finger down, the drop, what comes
    /// after), and feeds everything to a pipeline that reports every touch: the touches' ids and phases.
    func touches(reading source: ScriptedEvdev, into events: inout [RawEvent]) -> [(UInt64, TouchPhase)] {
        let scripted = device(source)
        for _ in 0..<3 { #expect(scripted.read(into: &events) == .drained) }
        // The daemon logs the loss when this count moves (the state frame's events do not count).
        #expect(scripted.droppedCount == 1)
        #expect(source.reads.isEmpty)
        var pipeline = GesturePipeline(engine: GestureEngine(configuration: EngineConfiguration(root: RegionSpec(id: "screen"), recognizers: [])), emitsAllTouches: true)
        pipeline.addDevice(EvdevReadTests.description, ref: DeviceRef(id: 0, name: "scripted", kind: .touchscreen),
                           surface: SurfaceConfiguration())
        var touches: [(UInt64, TouchPhase)] = []
        for event in events {
            for case .touch(let t) in pipeline.feed(event, device: 0) { touches.append((t.id.rawValue, t.phase)) }
        }
        return touches
    }

    static let down = [abs(1, .absMTSlot, 0), abs(1, .absMTTrackingID, 1), abs(1, .absMTPositionX, 100),
                       abs(1, .absMTPositionY, 100), report(1)]
    static let dropped = event(20, .syn, .synDropped, 0)

    /// SYN_DROPPED with the finger lifted during the drop: the device layer keeps the SYN_DROPPED,
    /// closes the dropped window with a SYN_REPORT, discards what followed it in the kernel's queue
    /// (the partial frame in the same read and the queued frames after it), then appends the state
    /// read afresh, timestamped with the latest event it discarded. Through the real pipeline, the
    /// finger is cancelled and never comes back, and the next drag is a touch of its own.
    @Test func synDroppedDiscardsTheQueueAndAppendsTheStateReadAfresh() {
        let partial = [Self.abs(21, .absMTPositionX, 150)]
        let queued = [Self.report(21), Self.abs(25, .absMTTrackingID, -1), Self.report(25)]
        let drag = [Self.abs(40, .absMTTrackingID, 2), Self.abs(40, .absMTPositionX, 300), Self.abs(40, .absMTPositionY, 300),
                    Self.report(40), Self.abs(50, .absMTPositionX, 400), Self.report(50),
                    Self.abs(60, .absMTTrackingID, -1), Self.report(60)]
        let source = ScriptedEvdev([.success(Self.down), .success([Self.dropped] + partial), .success(queued), .success(drag)])
        let state = Self.state(25, active: [:], touching: false)
        source.state = .success(state)
        var events: [RawEvent] = []
        let touches = touches(reading: source, into: &events)
        #expect(events == Self.down + [Self.dropped, Self.report(20)] + state + drag)
        #expect(source.stateReads == [Timestamp(microseconds: 25_000)])
        #expect(touches.map(\.1) == [.began, .cancelled, .began, .moved, .ended])
        #expect(touches[0].0 == touches[1].0)
        #expect(touches[2].0 != touches[0].0)
    }

    /// SYN_DROPPED with the finger still down: its touch is cancelled at the drop and a new touch
    /// begins where the state read finds it, then moves on.
    @Test func aFingerStillDownAfterTheDropBeginsAnewWhereTheStateFindsIt() {
        let move = [Self.abs(40, .absMTPositionX, 300), Self.report(40), Self.abs(50, .absMTTrackingID, -1), Self.report(50)]
        let source = ScriptedEvdev([.success(Self.down), .success([Self.dropped]), .failure(.wouldBlock), .success(move)])
        let state = Self.state(20, active: [0: (id: 1, x: 200, y: 100)], touching: true)
        source.state = .success(state)
        var events: [RawEvent] = []
        let touches = touches(reading: source, into: &events)
        #expect(events == Self.down + [Self.dropped, Self.report(20)] + state + move)
        #expect(touches.map(\.1) == [.began, .cancelled, .began, .moved, .ended])
        #expect(touches[2].0 != touches[0].0)
        #expect(touches[3].0 == touches[2].0)
    }

    @Test func aStateReadThatFailsMeansTheDeviceIsGone() {
        let source = ScriptedEvdev([.success(Self.down + [Self.dropped])])
        source.state = .failure(.noDevice)
        var events: [RawEvent] = []
        let status = device(source).read(into: &events)
        #expect(status == .gone(SystemCallError("libevdev_new_from_fd", errno: .noDevice, subject: "/dev/input/event99")))
        #expect(events == Self.down + [Self.dropped, Self.report(20)])
    }

    /// The state frame: every slot with its tracking id, the axes of the slots in use, the slot
    /// the kernel has selected, the other axes and every key, then SYN_REPORT. A protocol-A device
    /// sends no multitouch state.
    @Test func theStateFrameSetsEverySlotAxisAndKey() {
        let state = Self.state(7, active: [1: (id: 9, x: 30, y: 40)], touching: true)
        let t = Timestamp(microseconds: 7000)
        func e(_ type: EventType, _ code: EventCode, _ value: Int32) -> RawEvent { RawEvent(time: t, type: type, code: code, value: value) }
        let expected = [e(.abs, .absMTSlot, 0), e(.abs, .absMTTrackingID, -1),
                        e(.abs, .absMTSlot, 1), e(.abs, .absMTTrackingID, 9), e(.abs, .absMTPositionX, 30), e(.abs, .absMTPositionY, 40),
                        e(.abs, .absMTSlot, 2), e(.abs, .absMTTrackingID, -1), e(.abs, .absMTSlot, 3), e(.abs, .absMTTrackingID, -1),
                        e(.abs, .absMTSlot, 4), e(.abs, .absMTTrackingID, -1),
                        e(.abs, .absMTSlot, 1), e(.abs, .absX, 0), e(.abs, .absY, 0), e(.key, .btnTouch, 1), e(.syn, .synReport, 0)]
        #expect(state == expected)

        var protocolA = Self.description
        protocolA.codes[.abs] = [.absX, .absY, .absMTPositionX, .absMTPositionY]
        protocolA.absInfo[.absMTSlot] = nil
        protocolA.absInfo[.absMTTrackingID] = nil
        let frame = DeviceStateFrame(description: protocolA)
        #expect(frame.multitouchAxes.isEmpty)
        #expect(frame.events(at: t, slotCount: 0, currentSlot: 0, slotValue: { _, _ in 1 }, absoluteValue: { _ in 5 }, keyValue: { _ in 0 })
                == [e(.abs, .absX, 5), e(.abs, .absY, 5), e(.key, .btnTouch, 0), e(.syn, .synReport, 0)])
    }
}
