/// The raw side of forwarding (docs/forwarding.md): fed each raw event of a forwarded device and the
/// engine's verdicts (`TouchForwarding`), it produces the events of the device's clone, frame by
/// frame. Pure: no C, no clock; the clone's events carry the source's timestamps.
///
/// Each contact (a tracking id in a slot, protocol B) is a track:
///
/// | track     | event                            | clone gets / next                                          |
/// |-----------|----------------------------------|------------------------------------------------------------|
/// | passing   | its slot events                  | the same events, same slot / passing                        |
/// | passing   | withdraw                         | the slot's tracking id -1 in this frame / withdrawn         |
/// | (new)     | hold                             | — ; its events kept per frame / held                        |
/// | held      | its slot events                  | — ; kept in the frame's place / held                        |
/// | held      | release                          | every kept frame, in order, then its live events / passing  |
/// | held      | withdraw                         | — ; what was kept dropped / withdrawn                       |
/// | passing   | pause                            | — ; from this frame on its position events are not written (it stays down, still) / passing, paused |
/// | paused    | its position events              | — ; its place on the source noted / paused                   |
/// | paused    | its lift                         | the lift / paused                                            |
/// | paused    | withdraw                         | the slot's tracking id -1 in this frame / withdrawn          |
/// | paused    | resume                           | — ; from now on its positions shifted by (clone − source), clamped to the axis / passing |
/// | withdrawn | its slot events                  | — / withdrawn (forgotten once it lifts on the source)       |
/// | any       | SYN_DROPPED, then its SYN_REPORT | every track lifted on the clone; everything kept dropped    |
///
/// A frame in which every track passes and the clone is in step with the source is written as it
/// came (the fast path). Otherwise `BTN_TOUCH`, `BTN_TOOL_FINGER`…`QUINTTAP` and the single-touch
/// emulation (`ABS_X` / `ABS_Y` / `ABS_PRESSURE`, from the oldest touch on the clone) are computed from
/// the touches on the clone and written when they change; every other event (clickpad buttons,
/// `MSC_TIMESTAMP`) passes. Devices that are not protocol B pass through unchanged (no verdict applies).
/// A released track whose slot is meanwhile taken on the clone by another touch loses its kept frames
/// (it is written from its next event on).
public struct ForwardingEncoder: Sendable {
    enum Status: Sendable, Equatable { case passing, held, withdrawn }

    struct Track: Sendable {
        var serial: Int
        var slot: Int
        var trackingID: Int32
        var touch: TouchID?
        var status: Status = .passing
        /// Lifted on the source (its tracking id -1 or replaced).
        var sourceLifted = false
        /// Down on the clone (its tracking id written, not yet -1).
        var onClone = false
        var x: Int32 = 0, y: Int32 = 0, pressure: Int32 = 0
        var releasing = false
        var withdrawing = false
        /// Its position events are not written (pause verdict).
        var paused = false
        /// Where it is on the source, and what is added to its positions on the clone (after a pause).
        var sourceX: Int32 = 0, sourceY: Int32 = 0
        var shiftX: Int32 = 0, shiftY: Int32 = 0
        /// Written as it came: passing, not paused, not shifted.
        var isPlain: Bool { status == .passing && !paused && shiftX == 0 && shiftY == 0 }
    }

    /// One source frame's events of held tracks (`track` a serial), kept until released or withdrawn.
    struct KeptFrame: Sendable {
        var events: [(track: Int, code: EventCode, value: Int32)]
    }

    public let isProtocolB: Bool
    private let slotCount: Int
    let hasToolKeys: Bool
    let hasPressure: Bool
    let hasSingleTouchAxes: Bool
    /// The multitouch position axes' ranges (a shifted position is clamped to them).
    let xRange: ClosedRange<Int32>
    let yRange: ClosedRange<Int32>

    static func range(_ info: AbsInfo?) -> ClosedRange<Int32> {
        guard let info, info.minimum <= info.maximum else { return Int32.min...Int32.max }
        return info.minimum...info.maximum
    }

    /// The clone's events written since the last `takeOutput`.
    public internal(set) var output: [RawEvent] = []

    var tracks: [Track] = []
    var slotTrack: [Int]
    private var nextSerial = 1
    var sourceSlot = 0
    var cloneSlot = 0
    /// The frame being read: every event, and per event the serial of the track it belongs to (0: none).
    var frame: [RawEvent] = []
    var frameTracks: [Int] = []
    var verdicts: [TouchForwarding] = []
    var kept: [KeptFrame] = []
    var dropped = false
    /// Key state (bit 0 BTN_TOUCH, bits 1…5 BTN_TOOL_FINGER…QUINTTAP) of the source and the clone.
    var sourceKeys: UInt8 = 0
    var cloneKeys: UInt8 = 0
    var sourceAbs: (Int32, Int32, Int32) = (0, 0, 0)
    var cloneAbs: (Int32, Int32, Int32) = (0, 0, 0)
    /// The clone shows what the source shows (keys, emulation, current slot): a frame of passing tracks goes as it came.
    var inStep = true

    public init(description: DeviceDescription) {
        isProtocolB = description.multitouchProtocol == .typeB
        slotCount = min(max(1, description.slotCount), 64)
        hasToolKeys = description.supports(.key, .btnToolFinger)
        hasPressure = description.absInfo[.absPressure] != nil
        hasSingleTouchAxes = description.absInfo[.absX] != nil
        xRange = Self.range(description.absInfo[.absMTPositionX])
        yRange = Self.range(description.absInfo[.absMTPositionY])
        slotTrack = Array(repeating: 0, count: slotCount)
        let slot = Int(description.absInfo[.absMTSlot]?.value ?? 0)
        sourceSlot = slot >= 0 && slot < slotCount ? slot : 0
        cloneSlot = sourceSlot
        frame.reserveCapacity(64)
        frameTracks.reserveCapacity(64)
        output.reserveCapacity(64)
    }

    /// The clone's events written so far, handed over (the buffer kept for reuse).
    public mutating func takeOutput() -> [RawEvent] {
        let events = output
        output.removeAll(keepingCapacity: true)
        return events
    }

    public mutating func clearOutput() { output.removeAll(keepingCapacity: true) }

    /// Whether touches are down on the clone or kept (for a clean stop: `liftAll`).
    public var hasTouches: Bool { tracks.contains { $0.onClone || $0.status == .held } }

    /// Feeds one source event; true at a SYN_REPORT, where `endFrame` must follow.
    @inline(__always)
    public mutating func consume(_ event: RawEvent) -> Bool {
        if event.type == .syn {
            if event.code == .synReport { return true }
            if event.code == .synDropped {
                dropped = true
            } else if !isProtocolB && !dropped {
                frame.append(event)  // SYN_MT_REPORT: protocol A's contact separator
            }
            return false
        }
        if dropped { return false }
        guard isProtocolB else {
            frame.append(event)
            return false
        }
        var serial = 0
        if event.type == .abs {
            switch event.code {
            case .absMTSlot:
                sourceSlot = event.value >= 0 && Int(event.value) < slotCount ? Int(event.value) : -1
            case .absMTTrackingID:
                guard sourceSlot >= 0 else { return false }
                serial = slotTrack[sourceSlot]
                if event.value >= 0 {
                    if let k = index(of: serial), tracks[k].trackingID == event.value, !tracks[k].sourceLifted {
                        break
                    }
                    if let k = index(of: serial) { tracks[k].sourceLifted = true }
                    serial = nextSerial
                    nextSerial += 1
                    tracks.append(Track(serial: serial, slot: sourceSlot, trackingID: event.value))
                    slotTrack[sourceSlot] = serial
                } else {
                    if let k = index(of: serial) { tracks[k].sourceLifted = true }
                    slotTrack[sourceSlot] = 0
                }
            case .absMTPositionX, .absMTPositionY, .absMTPressure, .absMTTouchMajor, .absMTTouchMinor,
                 .absMTWidthMajor, .absMTWidthMinor, .absMTOrientation, .absMTToolType, .absMTBlobID,
                 .absMTDistance, .absMTToolX, .absMTToolY:
                guard sourceSlot >= 0 else { return false }
                serial = slotTrack[sourceSlot]
                // A slot with no contact: nothing of it is shown.
                if serial == 0 { return false }
            case .absX: sourceAbs.0 = event.value
            case .absY: sourceAbs.1 = event.value
            case .absPressure: sourceAbs.2 = event.value
            default: break
            }
        } else if event.type == .key, let bit = Self.keyBit(event.code) {
            sourceKeys = event.value != 0 ? sourceKeys | bit : sourceKeys & ~bit
        }
        frame.append(event)
        frameTracks.append(serial)
        return false
    }

    /// A verdict of the engine on a touch of this device, applied at the next `endFrame` or `flush`.
    public mutating func note(_ verdict: TouchForwarding) { verdicts.append(verdict) }

    /// Whether verdicts wait (then `flush` applies them outside a source frame: a timer decided).
    public var hasVerdicts: Bool { !verdicts.isEmpty }

    /// The SYN_REPORT of a source frame; `assembler` (the device's, past this report) names the touch
    /// the engine gave each new contact.
    public mutating func endFrame(at time: Timestamp, assembler: borrowing FrameAssembler) {
        if dropped {
            dropped = false
            liftEverything(at: time)
            frame.removeAll(keepingCapacity: true)
            frameTracks.removeAll(keepingCapacity: true)
            verdicts.removeAll(keepingCapacity: true)
            return
        }
        guard isProtocolB else {
            if !frame.isEmpty {
                output += frame
                output.append(RawEvent(time: time, type: .syn, code: .synReport, value: 0))
                frame.removeAll(keepingCapacity: true)
            }
            verdicts.removeAll(keepingCapacity: true)
            return
        }
        for k in tracks.indices where tracks[k].touch == nil && !tracks[k].sourceLifted
            && slotTrack[tracks[k].slot] == tracks[k].serial {
            tracks[k].touch = assembler.touchID(inSlot: tracks[k].slot)
        }
        let verdictsApplied = applyVerdicts()
        if !verdictsApplied && inStep && tracks.allSatisfy({ $0.isPlain }) {
            writeAsItCame(at: time)
        } else {
            writeReleased(at: time)
            writeFrame(at: time, live: true)
        }
        frame.removeAll(keepingCapacity: true)
        frameTracks.removeAll(keepingCapacity: true)
        forgetFinished()
    }

    /// Applies waiting verdicts outside a source frame (a timer decided): lifts and released frames
    /// are written as frames of their own at `time`.
    public mutating func flush(at time: Timestamp) {
        guard isProtocolB else {
            verdicts.removeAll(keepingCapacity: true)
            return
        }
        guard applyVerdicts() else { return }
        let savedFrame = frame, savedTracks = frameTracks
        frame.removeAll(keepingCapacity: true)
        frameTracks.removeAll(keepingCapacity: true)
        writeReleased(at: time)
        writeFrame(at: time, live: false)
        frame = savedFrame
        frameTracks = savedTracks
        forgetFinished()
    }

    /// Lifts every touch on the clone and drops what is kept (stopping, or after SYN_DROPPED).
    public mutating func liftEverything(at time: Timestamp) {
        var wrote = false
        for k in tracks.indices where tracks[k].onClone {
            selectCloneSlot(tracks[k].slot, time)
            put(time, .abs, .absMTTrackingID, -1)
            tracks[k].onClone = false
            wrote = true
        }
        tracks.removeAll()
        for s in slotTrack.indices { slotTrack[s] = 0 }
        kept.removeAll()
        if writeKeysAndEmulation(at: time, useSource: false) { wrote = true }
        if wrote { put(time, .syn, .synReport, 0) }
        sourceKeys = 0
        inStep = false
    }

    // MARK: - Steps

    func index(of serial: Int) -> Int? {
        guard serial != 0 else { return nil }
        var k = 0
        while k < tracks.count {
            if tracks[k].serial == serial { return k }
            k += 1
        }
        return nil
    }

    /// Marks the tracks the verdicts name; false when none applied.
    private mutating func applyVerdicts() -> Bool {
        guard !verdicts.isEmpty else { return false }
        var applied = false
        for v in verdicts {
            guard let k = tracks.firstIndex(where: { $0.touch == v.touch }) else { continue }
            applied = true
            switch (tracks[k].status, v.verdict) {
            case (.passing, .hold):
                tracks[k].status = .held
                inStep = false
            case (.held, .release):
                tracks[k].status = .passing
                tracks[k].releasing = true
            case (.passing, .withdraw):
                tracks[k].status = .withdrawn
                tracks[k].withdrawing = true
                inStep = false
            case (.held, .withdraw):
                tracks[k].status = .withdrawn
                let serial = tracks[k].serial
                for f in kept.indices { kept[f].events.removeAll { $0.track == serial } }
            case (.passing, .pause):
                if !tracks[k].paused && tracks[k].shiftX == 0 && tracks[k].shiftY == 0 {
                    tracks[k].sourceX = tracks[k].x
                    tracks[k].sourceY = tracks[k].y
                }
                tracks[k].paused = true
                inStep = false
            case (.passing, .resume):
                guard tracks[k].paused else { break }
                tracks[k].paused = false
                // From where it stopped on the clone, moving as the source moves from now on.
                tracks[k].shiftX = tracks[k].x &- tracks[k].sourceX
                tracks[k].shiftY = tracks[k].y &- tracks[k].sourceY
                inStep = false
            case (.held, .hold), (.held, .pause), (.held, .resume), (.passing, .release), (.withdrawn, _):
                break
            }
        }
        verdicts.removeAll(keepingCapacity: true)
        return applied
    }

    /// The fast path: every track passes and the clone shows what the source shows.
    mutating func writeAsItCame(at time: Timestamp) {
        guard !frame.isEmpty else { return }
        for k in frame.indices {
            let e = frame[k]
            if e.type == .abs && e.code == .absMTSlot { cloneSlot = Int(e.value) }
            let serial = frameTracks[k]
            if serial != 0, let t = index(of: serial) { track(t, e) }
            output.append(e)
        }
        cloneKeys = sourceKeys
        cloneAbs = sourceAbs
        put(time, .syn, .synReport, 0)
    }

    /// Keeps a track's position and whether it is down on the clone, for an event written to the clone.
    @inline(__always)
    mutating func track(_ k: Int, _ e: RawEvent) {
        switch e.code {
        case .absMTTrackingID:
            tracks[k].onClone = e.value >= 0
            // A new tracking id in a slot ends the touch the clone had there.
            if e.value >= 0 {
                for o in tracks.indices where o != k && tracks[o].onClone && tracks[o].slot == tracks[k].slot {
                    tracks[o].onClone = false
                }
            }
        case .absMTPositionX: tracks[k].x = e.value
        case .absMTPositionY: tracks[k].y = e.value
        case .absMTPressure: tracks[k].pressure = e.value
        default: break
        }
    }

}
