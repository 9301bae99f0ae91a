import GestureCore

/// Builds synthetic devices and event streams as data, for tracker tests.
struct EventScript {
    var description: DeviceDescription
    var events: [RawEvent] = []
    /// Current time in µs; `report()` advances it.
    var now: Int64 = 1_000_000

    /// A protocol-B touchscreen: 0...1000 on both axes at `resolution` units/mm, `slots` slots.
    static func protocolB(slots: Int = 5, resolution: Int32 = 10, extra: [EventCode: AbsInfo] = [:],
                          keys: Set<EventCode> = [.btnTouch]) -> EventScript {
        var abs: [EventCode: AbsInfo] = [
            .absX: AbsInfo(minimum: 0, maximum: 1000, resolution: resolution),
            .absY: AbsInfo(minimum: 0, maximum: 1000, resolution: resolution),
            .absMTSlot: AbsInfo(minimum: 0, maximum: Int32(slots - 1)),
            .absMTPositionX: AbsInfo(minimum: 0, maximum: 1000, resolution: resolution),
            .absMTPositionY: AbsInfo(minimum: 0, maximum: 1000, resolution: resolution),
            .absMTTrackingID: AbsInfo(minimum: 0, maximum: 65535),
        ]
        abs.merge(extra) { $1 }
        return EventScript(description: DeviceDescription(
            name: "test B", properties: [.direct], codes: [.abs: Set(abs.keys), .key: keys], absInfo: abs))
    }

    /// A protocol-A touchscreen (no slots).
    static func protocolA() -> EventScript {
        let abs: [EventCode: AbsInfo] = [
            .absX: AbsInfo(minimum: 0, maximum: 1000, resolution: 10),
            .absY: AbsInfo(minimum: 0, maximum: 1000, resolution: 10),
            .absMTPositionX: AbsInfo(minimum: 0, maximum: 1000, resolution: 10),
            .absMTPositionY: AbsInfo(minimum: 0, maximum: 1000, resolution: 10),
        ]
        return EventScript(description: DeviceDescription(
            name: "test A", properties: [.direct], codes: [.abs: Set(abs.keys), .key: [.btnTouch]], absInfo: abs))
    }

    /// A single-touch touchpad: ABS_X/ABS_Y/ABS_PRESSURE, BTN_TOUCH, BTN_TOOL_FINGER/DOUBLETAP.
    static func singleTouch() -> EventScript {
        let abs: [EventCode: AbsInfo] = [
            .absX: AbsInfo(minimum: 0, maximum: 1000, resolution: 10),
            .absY: AbsInfo(minimum: 0, maximum: 500, resolution: 10),
            .absPressure: AbsInfo(minimum: 0, maximum: 100),
        ]
        return EventScript(description: DeviceDescription(
            name: "test ST", properties: [.pointer], codes: [.abs: Set(abs.keys), .key: [.btnTouch, .btnToolFinger, .btnToolDoubleTap]],
            absInfo: abs))
    }

    mutating func abs(_ code: EventCode, _ value: Int32) {
        events.append(RawEvent(time: Timestamp(microseconds: now), type: .abs, code: code, value: value))
    }
    mutating func key(_ code: EventCode, _ down: Bool) {
        events.append(RawEvent(time: Timestamp(microseconds: now), type: .key, code: code, value: down ? 1 : 0))
    }
    mutating func syn(_ code: EventCode) {
        events.append(RawEvent(time: Timestamp(microseconds: now), type: .syn, code: code, value: 0))
    }
    /// SYN_REPORT, then the clock moves on by `ms`.
    mutating func report(advancing ms: Int64 = 10) {
        syn(.synReport)
        now += ms * 1000
    }

    // Protocol B helpers.
    mutating func down(slot: Int32, id: Int32, x: Int32, y: Int32) {
        abs(.absMTSlot, slot)
        abs(.absMTTrackingID, id)
        abs(.absMTPositionX, x)
        abs(.absMTPositionY, y)
    }
    mutating func move(slot: Int32, x: Int32, y: Int32) {
        abs(.absMTSlot, slot)
        abs(.absMTPositionX, x)
        abs(.absMTPositionY, y)
    }
    mutating func up(slot: Int32) {
        abs(.absMTSlot, slot)
        abs(.absMTTrackingID, -1)
    }
    // Protocol A helper.
    mutating func contact(x: Int32, y: Int32) {
        abs(.absMTPositionX, x)
        abs(.absMTPositionY, y)
        syn(.synMTReport)
    }

    /// Feeds every event and then `finish`es; returns all frames.
    func run(surface: SurfaceConfiguration = .init(), finish: Bool = true,
             configure: (DeviceDescription, DeviceRef, SurfaceConfiguration) -> FrameAssembler = {
                 FrameAssembler(description: $0, device: $1, surface: $2)
             }) -> [TouchFrame] {
        var assembler = configure(description, DeviceRef(id: 7, name: description.name, kind: description.kind), surface)
        var ids = TouchIDGenerator()
        var frames: [TouchFrame] = []
        for event in events {
            if let frame = assembler.feed(event, ids: &ids) { frames.append(frame) }
        }
        if finish { frames += assembler.finish(at: Timestamp(microseconds: now), ids: &ids) }
        return frames
    }
}

extension TouchFrame {
    /// Phases by touch id, for compact expectations.
    var phases: [TouchPhase] { touches.map(\.phase) }
    func touch(_ id: TouchID) -> Touch? { touches.first { $0.id == id } }
}

/// Checks the invariant on a list of frames: ids begin once, then move / stay, then end or cancel once;
/// nothing stays open. Returns the problems found.
func lifecycleProblems(_ frames: [TouchFrame]) -> [String] {
    var open: Set<TouchID> = []
    var seen: Set<TouchID> = []
    var problems: [String] = []
    for frame in frames {
        var inFrame: Set<TouchID> = []
        for touch in frame.touches {
            if !inFrame.insert(touch.id).inserted { problems.append("\(touch.id) twice in one frame") }
            switch touch.phase {
            case .began:
                if !seen.insert(touch.id).inserted { problems.append("\(touch.id) began again") }
                open.insert(touch.id)
            case .moved, .stationary:
                if !open.contains(touch.id) { problems.append("\(touch.id) \(touch.phase) while not open") }
            case .ended, .cancelled:
                if open.remove(touch.id) == nil { problems.append("\(touch.id) \(touch.phase) while not open") }
            }
        }
    }
    for id in open { problems.append("\(id) never closed") }
    return problems
}
