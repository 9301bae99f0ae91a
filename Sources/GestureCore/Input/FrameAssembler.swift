/// Turns one device's raw evdev events into touch frames: slot tracking (protocol B), contact
/// lists (protocol A), single-touch, BTN_TOOL_* finger counts, palms, hover, SYN_DROPPED,
/// surface mapping and tap counts. One per device. Pure: time comes from the events.
///
/// The protocol trackers (`SlotTracker`, `ContactListTracker`, `SingleTouchTracker`) turn events into
/// contacts with stable keys; at each SYN_REPORT this type turns the contact set into touches
/// (began / moved / stationary / ended / cancelled), adds synthesized fingers for BTN_TOOL_* counts
/// above the slot count, and emits a frame when anything but stationary happened.
///
/// Stream transition table (`State` × event → next state, effect):
///
/// | state     | event                 | next      | effect                                                        |
/// |-----------|-----------------------|-----------|---------------------------------------------------------------|
/// | streaming | EV_ABS / EV_KEY       | streaming | routed to the protocol tracker / finger count; frame pending   |
/// | streaming | SYN_MT_REPORT         | streaming | protocol A: contact closed                                     |
/// | streaming | SYN_REPORT            | streaming | contacts → touches; frame emitted if something changed         |
/// | streaming | SYN_DROPPED           | dropped   | —                                                              |
/// | dropped   | anything else         | dropped   | ignored                                                        |
/// | dropped   | SYN_REPORT            | streaming | open touches cancelled (frame); contacts still down begin anew |
///
/// Touch lifecycle per contact key at a SYN_REPORT:
///
/// | touch       | contact in the frame            | touch becomes                     |
/// |-------------|---------------------------------|-----------------------------------|
/// | none        | touching, not a palm            | began (tap count from `TapCounter`)|
/// | none        | palm / oversized                | none; the key is suppressed        |
/// | none        | hovering, or key suppressed     | none                              |
/// | open        | touching, moved / not moved     | moved / stationary                 |
/// | open        | palm / oversized                | cancelled; the key is suppressed   |
/// | open        | hovering, or gone               | ended                             |
public struct FrameAssembler: Sendable {
    public let device: DeviceRef
    public let description: DeviceDescription
    /// The axes the position comes on when configured (`SurfaceConfiguration.axes`), and whether it is.
    var axisRoute = PositionAxes(x: .absX, y: .absY)
    var remapsAxes = false
    /// ABS codes reported since the device was added (bit per code): `axisActivity`.
    var reportedAxes: UInt64 = 0
    /// Replaced between touch sequences by `setSurface` (FrameAssembler+LiveSurface.swift).
    public internal(set) var surface: SurfaceConfiguration
    public internal(set) var mapper: SurfaceMapper
    /// Tap count window: the next touch must go down within this many ms of the last lift…
    public let tapInterval: Double
    /// …and within this many mm of where it lifted.
    public let tapDistance: Double
    /// A contact whose major axis reaches this many mm is a palm (only where the size is known in mm).
    public let palmMajorAxis: Double

    public enum State: Sendable, Equatable { case streaming, dropped }
    public private(set) var state: State = .streaming
    /// The protocol this assembler tracks (from the description).
    public let multitouchProtocol: MultitouchProtocol

    struct OpenTouch: Sendable {
        var key: UInt64
        var id: TouchID
        var location: Point
        var physical: Point
        var pressure: Double?
        var major: Double?
        var tapCount: Int
        var isSynthesized: Bool
        var type: TouchType = .finger
        var altitude: Double? = nil
        var azimuth: Double? = nil
        var buttons: StylusButtons = []
    }

    var keys = ContactKeyGenerator()
    var slots: SlotTracker
    var contactList: ContactListTracker
    var single: SingleTouchTracker
    /// A pen interface's tool (`isPen`): its contact, hover, tilt and barrel buttons.
    var pen: PenTracker
    /// The device is a pen interface (`DeviceDescription.isPenInterface`).
    public let isPen: Bool
    let penTilt: PenTilt?
    let distanceMinimum: Double
    let distanceRange: Double
    /// The open hover's id (a hovering line went out and no `hover-ended` yet), and where it was last
    /// published (nil: publish the next hover sample whatever its place, as after a contact).
    var hoverID: TouchID?
    var hoverPublishedAt: Point?
    var hoverLocation = Point.zero
    var hoverPhysical = Point.zero
    var pendingHover: PenHover?
    /// The last hovering sample published (its type and buttons: a change of either is news).
    var pendingHoverBase: PenHover?
    /// How near the pen of a sibling device sharing this surface is (set by `GesturePipeline`): with
    /// the surface's `palmRejection`, fingers landing meanwhile are ignored.
    public internal(set) var siblingPen: PenProximity = .away
    /// Devices with the same key share a surface (`DeviceSiblings`).
    public let siblingKey: String
    /// A pen interface's proximity as last reported, and whether the last frame changed it (the
    /// pipeline then tells the siblings).
    var reportedPen = PenProximity.away
    var penProximityChanged = false
    var fingerCount = FingerCountTracker()
    var tapCounter: TapCounter
    var buttonTouchDown = false
    /// BTN_LEFT / RIGHT / MIDDLE held (a physical click), and whether that changed since the last frame.
    var physicalButtons: UInt8 = 0
    var physicalButtonsChanged = false
    /// Last ABS_X / ABS_Y (the single-touch emulation), nil until reported (or read with a live
    /// device's state): what a slot takes for a coordinate it never reported (Cypress trackpads open a
    /// second slot without coordinates; a recording begun mid-session lacks values that did not
    /// change). Only used when those axes have the MT axes' range.
    var legacyX: Int32?
    var legacyY: Int32?
    let legacyMatchesContacts: Bool
    var framePending = false

    var open: [OpenTouch] = []
    /// Whether a touch of this device is down (a surface change waits until none is).
    public var hasOpenTouches: Bool { !open.isEmpty }
    var samples = ContactSamples()
    var suppressed: [UInt64] = []
    var output: [Touch] = []

    let capacity: Int
    let usesButtonTouch: Bool
    let pressureMinimum: Double
    let pressureRange: Double
    /// A touchpad's contacts told by pressure, as libinput tells them (`TouchPressure`): nil when not.
    let touchPressure: TouchPressure?
    let majorUnitsPerMM: Double
    let sizeIsKnown: Bool

    public init(description: DeviceDescription, device: DeviceRef, surface: SurfaceConfiguration = .init(),
                tapInterval: Double = RecognizerParameters().tapInterval,
                tapDistance: Double = RecognizerParameters().tapDistance, palmMajorAxis: Double = 30) {
        self.description = description
        var device = device
        device.isSemiMultitouch = description.has(.semiMT)
        device.isButtonpad = description.has(.buttonpad)
        self.device = device
        self.surface = surface
        self.tapInterval = tapInterval
        self.tapDistance = tapDistance
        self.palmMajorAxis = palmMajorAxis
        let proto = description.multitouchProtocol
        multitouchProtocol = proto
        if let axes = surface.axes {
            axisRoute = axes
            remapsAxes = true
        }
        // The description as positions are read: with `axes:`, the replaced axes take the ranges of
        // the axes the position comes on.
        let positioned = surface.axes.map { $0.applied(to: description) } ?? description
        let (xAxis, yAxis) = SurfaceMapper.positionAxes(of: positioned)
        mapper = SurfaceMapper(description: description, surface: surface)
        func initial(_ info: AbsInfo?) -> Int32 {
            guard let info else { return 0 }
            return min(max(info.value, info.minimum), max(info.minimum, info.maximum))
        }
        // A position nobody reported is unknown: a recording's header carries ranges, not values.
        legacyX = description.knowsAxisValues ? positioned.absInfo[.absX].map { initial($0) } : nil
        legacyY = description.knowsAxisValues ? positioned.absInfo[.absY].map { initial($0) } : nil
        func sameRange(_ a: AbsInfo?, _ b: AbsInfo?) -> Bool { a?.minimum == b?.minimum && a?.maximum == b?.maximum }
        legacyMatchesContacts = sameRange(positioned.absInfo[.absX], xAxis) && sameRange(positioned.absInfo[.absY], yAxis)
        slots = SlotTracker(slotCount: proto == .typeB ? description.slotCount : 1,
                            initialSlot: description.absInfo[.absMTSlot]?.value ?? 0)
        contactList = ContactListTracker(deviceUnitsPerMM: mapper.deviceUnitsPerMM)
        single = SingleTouchTracker(initialX: initial(xAxis), initialY: initial(yAxis),
                                    positionKnown: description.knowsAxisValues)
        tapCounter = TapCounter(maximumIntervalMS: tapInterval, maximumDistanceMM: tapDistance)
        isPen = description.isPenInterface
        siblingKey = DeviceSiblings.key(of: description)
        pen = PenTracker(initialX: initial(xAxis), initialY: initial(yAxis), positionKnown: description.knowsAxisValues)
        penTilt = PenTilt(description: description)
        let distanceAxis = description.absInfo[.absDistance]
        distanceMinimum = Double(distanceAxis?.minimum ?? 0)
        distanceRange = Double(distanceAxis.map { Int64($0.maximum) - Int64($0.minimum) } ?? 0)
        switch proto {
        case .typeB: capacity = slots.slotCount
        case .singleTouch: capacity = 1
        case .typeA: capacity = Int.max
        }
        usesButtonTouch = description.supports(.key, .btnTouch)
        let pressureAxis = proto == .singleTouch ? description.absInfo[.absPressure] : description.absInfo[.absMTPressure]
        pressureMinimum = Double(pressureAxis?.minimum ?? 0)
        pressureRange = Double(pressureAxis.map { Int64($0.maximum) - Int64($0.minimum) } ?? 0)
        touchPressure = TouchPressure(description)
        let majorResolution = description.absInfo[.absMTTouchMajor]?.resolution ?? 0
        majorUnitsPerMM = majorResolution > 0 ? Double(majorResolution) : mapper.deviceUnitsPerMM.x
        sizeIsKnown = majorResolution > 0 || mapper.hasKnownResolution
        open.reserveCapacity(16)
        output.reserveCapacity(16)
    }

    /// Feeds one event; returns a frame at each SYN_REPORT that changed something.
    public mutating func feed(_ event: RawEvent, ids: inout TouchIDGenerator) -> TouchFrame? {
        consume(event) ? report(at: event.time, ids: &ids) : nil
    }

    /// `feed` in two halves, so that a caller handles an optional frame once per frame, not per event:
    /// takes one event and returns true at a SYN_REPORT, where `report(at:ids:)` must follow.
    @inline(__always)
    mutating func consume(_ event: RawEvent) -> Bool {
        if event.type == .syn {
            switch event.code {
            case .synReport:
                return true
            case .synDropped:
                state = .dropped
                framePending = false
            case .synMTReport:
                if state == .streaming && multitouchProtocol == .typeA {
                    contactList.handle(.contactEnd, keys: &keys)
                    framePending = true
                }
            default:
                break
            }
            return false
        }
        guard state == .streaming else { return false }
        if event.type == .abs {
            framePending = true
            reportedAxes |= 1 &<< UInt64(event.code.rawValue & 63)
            routeAxis(remapsAxes ? axisRoute.route(event.code) : event.code, event.value)
        } else if event.type == .key {
            framePending = true
            routeKey(event.code, down: event.value != 0)
        }
        return false
    }

    /// The SYN_REPORT half of `feed`: the frame, if anything changed.
    mutating func report(at time: Timestamp, ids: inout TouchIDGenerator) -> TouchFrame? {
        framePending = false
        if state == .dropped {
            state = .streaming
            return resynchronize(at: time)
        }
        return assembleFrame(at: time, ids: &ids)
    }

    @inline(__always)
    private mutating func routeAxis(_ code: EventCode, _ value: Int32) {
        if legacyMatchesContacts {
            switch code {
            case .absX: legacyX = value
            case .absY: legacyY = value
            default: break
            }
        }
        switch multitouchProtocol {
        case .typeB:
            switch code {
            case .absMTSlot: slots.selectSlot(value)
            case .absMTTrackingID: slots.handle(.trackingID(value), keys: &keys)
            case .absMTPositionX, .absMTPositionY, .absMTPressure, .absMTTouchMajor, .absMTToolType, .absMTDistance:
                slots.handle(.axis(code, value), keys: &keys)
            default: break
            }
        case .typeA:
            contactList.handle(.axis(code, value), keys: &keys)
        case .singleTouch:
            if isPen {
                pen.handle(.axis(code, value), keys: &keys)
                return
            }
            single.handle(.axis(code, value), keys: &keys)
            if !usesButtonTouch && code == .absPressure && !description.supports(.key, .btnToolFinger) {
                single.handle(.contact(value > 0), keys: &keys)
            }
        }
    }

    @inline(__always)
    private mutating func routeKey(_ code: EventCode, down: Bool) {
        if code == .btnLeft || code == .btnRight || code == .btnMiddle {
            let bit: UInt8 = code == .btnLeft ? 1 : code == .btnRight ? 2 : 4
            let buttons = down ? physicalButtons | bit : physicalButtons & ~bit
            if buttons != physicalButtons {
                physicalButtons = buttons
                physicalButtonsChanged = true
            }
        } else if isPen {
            if code == .btnTouch {
                pen.handle(.contact(down), keys: &keys)
            } else if let tool = PenTracker.tool(for: code) {
                pen.handle(.tool(tool, inRange: down), keys: &keys)
            } else if let button = PenTracker.button(for: code) {
                pen.handle(.button(button, down: down), keys: &keys)
            }
        } else if code == .btnTouch {
            buttonTouchDown = down
            if multitouchProtocol == .singleTouch { single.handle(.contact(down), keys: &keys) }
        } else if let fingers = FingerCountTracker.fingers(for: code) {
            fingerCount.handle(.tool(fingers: fingers, down: down))
            if multitouchProtocol == .singleTouch && !usesButtonTouch && code == .btnToolFinger {
                single.handle(.contact(down), keys: &keys)
            }
        }
    }

    /// Cancels every open touch (device removed, or end of a stream cut short); nil when none is open.
    /// Contacts still down afterwards begin anew if the device keeps reporting them.
    public mutating func cancelAll(at time: Timestamp) -> TouchFrame? {
        resynchronize(at: time)
    }

    /// End of input: completes a pending frame that lacked its SYN_REPORT, then cancels what is still open.
    public mutating func finish(at time: Timestamp, ids: inout TouchIDGenerator) -> [TouchFrame] {
        var frames: [TouchFrame] = []
        if framePending && state == .streaming, let frame = assembleFrame(at: time, ids: &ids) {
            frames.append(frame)
        }
        framePending = false
        state = .streaming
        if let frame = cancelAll(at: time) { frames.append(frame) }
        return frames
    }

    // MARK: - Frame assembly

    private mutating func resynchronize(at time: Timestamp) -> TouchFrame? {
        output.clearKeepingCapacity()
        for touch in open { output.append(makeTouch(touch, phase: .cancelled, previous: touch, time: time)) }
        open.clearKeepingCapacity()
        suppressed.clearKeepingCapacity()
        tapCounter.cancel()
        slots.handle(.resync, keys: &keys)
        contactList.handle(.resync, keys: &keys)
        single.handle(.resync, keys: &keys)
        pen.handle(.resync, keys: &keys)
        if let id = hoverID { endHover(id) }
        return emit(at: time)
    }

    @inline(__always)
    private mutating func assembleFrame(at time: Timestamp, ids: inout TouchIDGenerator) -> TouchFrame? {
        samples.removeAll()
        switch multitouchProtocol {
        case .typeB: slots.collect(into: &samples, fallbackX: legacyX, fallbackY: legacyY)
        case .typeA: contactList.handle(.frameEnd(buttonTouchDown: buttonTouchDown && usesButtonTouch), keys: &keys)
                     contactList.collect(into: &samples)
        case .singleTouch: if isPen { pen.collect(into: &samples) } else { single.collect(into: &samples) }
        }
        output.clearKeepingCapacity()
        var changed = false

        // Open real touches against this frame's contacts.
        var index = 0
        while index < open.count {
            let touch = open[index]
            if touch.isSynthesized { index += 1; continue }
            let sample = samples.sample(key: touch.key)
            if let sample, sample.contact == .touching, !isOversized(sample), !liftsByPressure(sample) {
                var updated = touch
                update(&updated, from: sample)
                if keep(updated, at: index, time: time) { changed = true }
                index += 1
            } else {
                let palm = sample.map { $0.contact == .palm || isOversized($0) } ?? false
                if palm {
                    suppressed.append(touch.key)
                    output.append(makeTouch(touch, phase: .cancelled, previous: touch, time: time))
                } else {
                    tapCounter.lift(at: time, location: touch.physical, tapCount: touch.tapCount)
                    output.append(makeTouch(touch, phase: .ended, previous: touch, time: time))
                }
                open.remove(at: index)
                changed = true
            }
        }

        // New contacts.
        for index in samples.indices where samples[index].contact != .hovering {
            let sample = samples[index]
            if open.contains(where: { $0.key == sample.key }) || suppressed.contains(sample.key) { continue }
            if tooLightToBegin(sample) { continue }
            if sample.contact == .palm || isOversized(sample) || (sample.type == .finger && rejectsFingers()) {
                suppressed.append(sample.key)
                continue
            }
            var touch = OpenTouch(key: sample.key, id: ids.make(), location: .zero, physical: .zero,
                                  pressure: nil, major: nil, tapCount: 1, isSynthesized: false, type: sample.type)
            update(&touch, from: sample)
            touch.tapCount = tapCounter.tapCount(downAt: time, location: touch.physical)
            // Keep real touches before synthesized ones.
            let insertAt = open.firstIndex { $0.isSynthesized } ?? open.count
            open.insert(touch, at: insertAt)
            output.append(makeTouch(touch, phase: .began, previous: touch, time: time))
            changed = true
        }
        if !suppressed.isEmpty {
            suppressed.removeAll { key in samples.sample(key: key) == nil }
        }

        if synthesizeFingers(at: time, ids: &ids) { changed = true }
        if isPen {
            if updateHover(ids: &ids) { changed = true }
            let proximity = pen.proximity
            penProximityChanged = proximity != reportedPen
            reportedPen = proximity
        }
        if physicalButtonsChanged {
            // A click or release is news even when no finger moved.
            physicalButtonsChanged = false
            if !output.isEmpty { changed = true }
        }
        return changed ? emit(at: time) : nil
    }

    /// An open touch that stays down, now `updated`: its line (moved, or stationary when its physical
    /// position is the same) and its new state. Returns whether it moved.
    @inline(__always)
    mutating func keep(_ updated: OpenTouch, at index: Int, time: Timestamp) -> Bool {
        let previous = open[index]
        let moved = updated.physical != previous.physical
        output.append(makeTouch(updated, phase: moved ? .moved : .stationary, previous: previous, time: time))
        open[index] = updated
        return moved
    }

    @inline(__always)
    func makeTouch(_ touch: OpenTouch, phase: TouchPhase, previous: OpenTouch, time: Timestamp) -> Touch {
        Touch(id: touch.id, phase: phase, location: touch.location, previousLocation: previous.location,
              physicalLocation: touch.physical, previousPhysicalLocation: previous.physical, time: time,
              tapCount: touch.tapCount, pressure: touch.pressure, majorAxis: touch.major,
              isSynthesized: touch.isSynthesized, type: touch.type, altitudeAngle: touch.altitude,
              azimuthAngle: touch.azimuth, buttons: touch.buttons, device: device)
    }

    private mutating func emit(at time: Timestamp) -> TouchFrame? {
        guard !output.isEmpty || pendingHover != nil else { return nil }
        let hover = pendingHover
        pendingHover = nil
        // Shares `output`'s buffer: once the caller has dropped the frame, the next frame reuses it
        // in place (no allocation per frame).
        return TouchFrame(device: device, time: time, touches: output, surfaceSize: mapper.surfaceSize,
                          unitsPerMM: mapper.surfaceUnitsPerMM, physicalButtonDown: physicalButtons != 0, hover: hover)
    }
}
