/// Raw events of several devices in, engine outputs out: one `FrameAssembler` per device feeding
/// one `GestureEngine`. The live daemon and `gestured replay` both drive this same value.
public struct GesturePipeline: Sendable {
    public var engine: GestureEngine
    /// One assembler per device, `deviceIDs[i]` the id of `assemblers[i]`. Looked up by a scan (a few
    /// devices): no hashing per event, and the assembler is mutated in place.
    var deviceIDs: [Int] = []
    var assemblers: [FrameAssembler] = []
    /// Per assembler, the index of its device's forwarding encoder in `encoders`, or -1
    /// (GesturePipeline+Forwarding.swift): a device that is not forwarded pays one comparison per event.
    var encoderIndex: [Int] = []
    var encoders: [ForwardingEncoder] = []
    var encoderDevices: [Int] = []
    /// The encoder whose device's read was written ahead (GesturePipeline+WritingAhead.swift): its
    /// events pass it by while the engine runs on them. -1: none.
    var aheadEncoder = -1
    /// Reads written ahead, and verdicts that came for such a read all the same (a bug: applied at
    /// once as a frame of their own, so the clone stays right).
    public internal(set) var readsWrittenAhead = 0
    public internal(set) var verdictsAfterWritingAhead = 0
    /// Surfaces waiting for their device's touches to lift (GesturePipeline+LiveSurface.swift).
    var pendingSurfaces: [Int: SurfaceConfiguration] = [:]
    private var ids = TouchIDGenerator()
    /// Also emit every touch of every frame (`replay --touches`), not only region streams.
    public var emitsAllTouches: Bool

    public init(engine: GestureEngine, emitsAllTouches: Bool = false) {
        self.engine = engine
        self.emitsAllTouches = emitsAllTouches
    }

    public mutating func addDevice(_ description: DeviceDescription, ref: DeviceRef, surface: SurfaceConfiguration) {
        let window = engine.configuration.touchTapCountWindow
        let assembler = FrameAssembler(description: description, device: ref, surface: surface,
                                       tapInterval: window.interval, tapDistance: window.distance)
        if let index = assemblerIndex(ref.id) {
            assemblers[index] = assembler
        } else {
            deviceIDs.append(ref.id)
            assemblers.append(assembler)
            encoderIndex.append(-1)
        }
        pendingSurfaces[ref.id] = nil
        tellSiblingsOfPen(key: assembler.siblingKey)
    }

    /// Gives every device sharing a surface (`DeviceSiblings`) the nearest of its siblings' pens, for
    /// palm rejection: called when a pen's proximity changed, or a device came or went.
    mutating func tellSiblingsOfPen(key: String) {
        for i in assemblers.indices where assemblers[i].siblingKey == key {
            var nearest = PenProximity.away
            for k in assemblers.indices where k != i && assemblers[k].isPen && assemblers[k].siblingKey == key {
                nearest = max(nearest, assemblers[k].penProximity)
            }
            assemblers[i].siblingPen = nearest
        }
    }

    /// Where device `id`'s assembler is, or nil.
    func assemblerIndex(_ id: Int) -> Int? {
        var i = 0
        while i < deviceIDs.count {
            if deviceIDs[i] == id { return i }
            i += 1
        }
        return nil
    }

    /// Cancels the device's open touches (and so its recognizers) and forgets it.
    public mutating func removeDevice(id: Int, at time: Timestamp) -> [EngineOutput] {
        guard let index = assemblerIndex(id) else { return [] }
        stopForwarding(device: id, at: time)
        deviceIDs.remove(at: index)
        encoderIndex.remove(at: index)
        var assembler = assemblers.remove(at: index)
        var out = engine.advance(to: time)
        if let frame = assembler.cancelAll(at: time) { out += deliver(frame) }
        if assembler.isPen { tellSiblingsOfPen(key: assembler.siblingKey) }
        engine.removeLane(device: id)
        return out
    }

    /// Devices added and not removed.
    public var deviceCount: Int { assemblers.count }

    /// Feeds one raw event of a device; fires due deadlines first so outputs stay in time order.
    public mutating func feed(_ event: RawEvent, device id: Int) -> [EngineOutput] {
        guard let index = assemblerIndex(id) else { return [] }
        var out: [EngineOutput] = []
        step(event, assembler: index, into: &out)
        return out
    }

    /// Feeds every event of one read of a device in order, as `feed(_:device:)` one by one would,
    /// with one assembler look-up for them all (the live daemon reads a frame or more at a time).
    public mutating func feed(_ events: [RawEvent], device id: Int) -> [EngineOutput] {
        guard let index = assemblerIndex(id) else { return [] }
        var out: [EngineOutput] = []
        for event in events { step(event, assembler: index, into: &out) }
        return out
    }

    /// One event through the assembler at `index`: due deadlines first, then the frame it closes
    /// (if any), then a surface change that was waiting for the device's touches to lift.
    @inline(__always)
    private mutating func step(_ event: RawEvent, assembler index: Int, into out: inout [EngineOutput]) {
        if let deadline = engine.nextDeadline, deadline <= event.time {
            let start = out.count
            if out.isEmpty { out = engine.advance(to: event.time) } else { out += engine.advance(to: event.time) }
            if !encoders.isEmpty { forwardVerdicts(out, from: start, at: event.time, frameOf: -1) }
        }
        // No forwarded device (the usual case): decided without reading the index. A read written
        // ahead has been through its encoder already.
        var encoder = -1
        if !encoders.isEmpty {
            encoder = encoderIndex[index]
            if encoder == aheadEncoder { encoder = -1 }
        }
        let report = assemblers[index].consume(event)
        if encoder >= 0 { _ = encoders[encoder].consume(event) }
        guard report else { return }
        let start = out.count
        if let frame = assemblers[index].report(at: event.time, ids: &ids) {
            // Taking the engine's arrays whole when nothing came before keeps their storage reusable.
            if out.isEmpty {
                out = deliver(frame)
            } else {
                out += deliver(frame)
            }
        }
        if assemblers[index].penProximityChanged {
            assemblers[index].penProximityChanged = false
            tellSiblingsOfPen(key: assemblers[index].siblingKey)
        }
        if !encoders.isEmpty {
            if encoder >= 0 {
                forwardVerdicts(out, from: start, at: event.time, frameOf: encoder, assembler: index)
            } else if aheadEncoder >= 0 {
                forwardVerdictsAfterWritingAhead(out, from: start, at: event.time)
            }
        }
        if !pendingSurfaces.isEmpty { applyPendingSurface(at: index) }
    }

    public mutating func advance(to time: Timestamp) -> [EngineOutput] {
        let out = engine.advance(to: time)
        if !encoders.isEmpty { forwardVerdicts(out, from: 0, at: time, frameOf: -1) }
        return out
    }
    public var nextDeadline: Timestamp? { engine.nextDeadline }

    /// End of input for every device: closes open touches, then runs time past every deadline.
    public mutating func finish(at time: Timestamp) -> [EngineOutput] {
        var out: [EngineOutput] = []
        for index in deviceIDs.indices.sorted(by: { deviceIDs[$0] < deviceIDs[$1] }) {
            for frame in assemblers[index].finish(at: time, ids: &ids) { out += deliver(frame) }
        }
        var now = time
        out += engine.advance(to: now)
        var guardCount = 0
        while let deadline = engine.nextDeadline, guardCount < 10_000 {
            now = max(now, deadline)
            out += engine.advance(to: now)
            guardCount += 1
        }
        if !encoders.isEmpty {
            forwardVerdicts(out, from: 0, at: now, frameOf: -1)
            for e in encoders.indices { encoders[e].liftEverything(at: now) }
        }
        return out
    }

    /// Takes the frame (`consuming`): it is released here as the frame it is, not later by the
    /// caller as the optional it was unwrapped from (which goes through the optional's generic
    /// value witnesses, several calls a frame).
    @inline(__always)
    private mutating func deliver(_ frame: consuming TouchFrame) -> [EngineOutput] {
        // The engine's array as it is (no second array to copy every output into).
        guard emitsAllTouches else { return engine.process(frame) }
        var out: [EngineOutput] = []
        for touch in frame.touches where touch.phase != .stationary {
            out.append(.touch(TouchEvent(touch, region: nil, device: frame.device.name)))
        }
        if let hover = frame.hover {
            out.append(.touch(TouchEvent(hover, time: frame.time, region: nil, device: frame.device.name)))
        }
        let device = frame.device.id
        out += engine.process(frame)
        // A touch's began line carries the hit chain the engine bound it to (docs/protocol.md).
        for k in out.indices {
            guard case .touch(var t) = out[k], t.phase == .began, t.hoverPhase == nil, t.chain == nil else { continue }
            t.chain = engine.touchChain(t.id, device: device)
            out[k] = .touch(t)
        }
        return out
    }
}
