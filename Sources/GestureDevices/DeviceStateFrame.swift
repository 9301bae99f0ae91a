import GestureCore

/// A device's whole state as one frame of events, as if the device had just reported everything:
/// what the reader feeds the frame assembler after SYN_DROPPED (the events the kernel dropped are
/// gone, the state they led to is not). Pure: the values come from the caller (libevdev, or a test).
///
/// Order: for every slot of a protocol-B device `ABS_MT_SLOT s`, `ABS_MT_TRACKING_ID` and, for a
/// slot in use, every other `ABS_MT_*` axis the device has; then `ABS_MT_SLOT` back to the slot the
/// kernel has selected (its next events omit it while it stays the same); then every other absolute
/// axis and every key the device has, with its value; then `SYN_REPORT`. Released keys and empty
/// slots are sent too: a finger lifted during the drop must end. A protocol-A device (no slots) has
/// no multitouch state to send: its next report lists every contact anyway.
struct DeviceStateFrame: Sendable {
    /// The axes and keys the device has: multitouch axes besides the slot and tracking id (none for
    /// a protocol-A device), other absolute axes, keys; each in code order.
    let multitouchAxes: [EventCode]
    let absoluteAxes: [EventCode]
    let keys: [EventCode]

    /// The codes of `description` sorted into the three lists.
    init(description: DeviceDescription) {
        let abs = (description.codes[.abs] ?? []).sorted { $0.rawValue < $1.rawValue }
        multitouchAxes = description.multitouchProtocol == .typeB ? abs.filter { Self.isMultitouch($0) && $0 != .absMTSlot && $0 != .absMTTrackingID } : []
        absoluteAxes = abs.filter { !Self.isMultitouch($0) }
        keys = (description.codes[.key] ?? []).sorted { $0.rawValue < $1.rawValue }
    }

    static func isMultitouch(_ code: EventCode) -> Bool {
        code.rawValue >= EventCode.absMTSlot.rawValue && code.rawValue <= EventCode.absMTToolY.rawValue
    }

    /// The frame, from the device's values now: `slotCount` slots (0 for none), the slot the kernel
    /// has selected, and `slotValue(slot, code)`, `absoluteValue(code)` and `keyValue(code)`.
    func events(at time: Timestamp, slotCount: Int, currentSlot: Int32, slotValue: (Int, EventCode) -> Int32,
                absoluteValue: (EventCode) -> Int32, keyValue: (EventCode) -> Int32) -> [RawEvent] {
        var events: [RawEvent] = []
        func add(_ type: EventType, _ code: EventCode, _ value: Int32) {
            events.append(RawEvent(time: time, type: type, code: code, value: value))
        }
        for slot in 0..<slotCount {
            add(.abs, .absMTSlot, Int32(slot))
            let trackingID = slotValue(slot, .absMTTrackingID)
            add(.abs, .absMTTrackingID, trackingID)
            guard trackingID >= 0 else { continue }
            for code in multitouchAxes { add(.abs, code, slotValue(slot, code)) }
        }
        if slotCount > 0 { add(.abs, .absMTSlot, currentSlot) }
        for code in absoluteAxes { add(.abs, code, absoluteValue(code)) }
        for code in keys { add(.key, code, keyValue(code)) }
        add(.syn, .synReport, 0)
        return events
    }
}
