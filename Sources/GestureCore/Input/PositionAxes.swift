/// The axes a device's position comes on, when not its usual ones: some devices report it on other
/// axes (a broken HID report descriptor: one eGalax controller moves ABS_Z / ABS_RX and never ABS_X /
/// ABS_Y). The config's `axes: { x: ABS_Z, y: ABS_RX }` (docs/configuration.md) reads the position
/// from these, with their ranges from the device's description, as udev's hwdb (`EVDEV_ABS_*`) and
/// libinput's quirks mend other faults of a device's axes.
///
/// A code of the multitouch range (ABS_MT_*) stands in for ABS_MT_POSITION_X / Y (the slots'
/// position); any other code for ABS_X / ABS_Y. Events of the axes it replaces are then ignored.
public struct PositionAxes: Hashable, Sendable {
    public var x: EventCode
    public var y: EventCode

    public init(x: EventCode, y: EventCode) {
        self.x = x
        self.y = y
    }

    /// The position axis `source` stands in for.
    static func target(of source: EventCode, isX: Bool) -> EventCode {
        if source.rawValue >= EventCode.absMTSlot.rawValue {
            return isX ? .absMTPositionX : .absMTPositionY
        }
        return isX ? .absX : .absY
    }

    var targetX: EventCode { Self.target(of: x, isX: true) }
    var targetY: EventCode { Self.target(of: y, isX: false) }

    /// An axis code nothing routes (past ABS_MT_TOOL_Y, below ABS_MAX): the replaced axes' events.
    static let unrouted = EventCode(0x3e)

    /// The code an event on `code` is read as.
    @inline(__always)
    func route(_ code: EventCode) -> EventCode {
        if code == x { return targetX }
        if code == y { return targetY }
        if code == targetX || code == targetY { return Self.unrouted }
        return code
    }

    /// `description` as the frame assembler reads it: the replaced axes take the ranges (and, for a
    /// live device, the values) of the axes the position comes on.
    func applied(to description: DeviceDescription) -> DeviceDescription {
        var result = description
        let sourceX = description.absInfo[x], sourceY = description.absInfo[y]
        result.absInfo[targetX] = sourceX
        result.absInfo[targetY] = sourceY
        if sourceX != nil { result.codes[.abs, default: []].insert(targetX) }
        if sourceY != nil { result.codes[.abs, default: []].insert(targetY) }
        return result
    }
}

/// What a device has shown of its axes since it was added: which absolute axes it reported, and how
/// many contacts went down with no known position. Together they tell a device whose position comes
/// on other axes (`positionProblem`), for the log, `gesturectl devices` and `gestured replay`.
public struct AxisActivity: Sendable, Equatable {
    /// Bit n: ABS code n was reported (the kernel sends an axis only when its value changed).
    public var reported: UInt64 = 0
    /// Contacts (a BTN_TOUCH press, a slot's tracking id) that had no known position in the frame
    /// they went down in.
    public var contactsWithoutPosition = 0

    public init(reported: UInt64 = 0, contactsWithoutPosition: Int = 0) {
        self.reported = reported
        self.contactsWithoutPosition = contactsWithoutPosition
    }

    public func hasReported(_ code: EventCode) -> Bool {
        code.rawValue < 64 && reported & (1 << UInt64(code.rawValue)) != 0
    }

    /// The absolute axes of `description` that moved, and those that never did, in code order.
    public func axes(of description: DeviceDescription) -> (moved: [EventCode], still: [EventCode]) {
        let codes = Set(description.absInfo.keys).union(description.codes[.abs] ?? []).sorted()
        return (codes.filter { hasReported($0) }, codes.filter { !hasReported($0) })
    }

    /// A sentence for a device whose contacts had no position because its position axes never moved
    /// while others did, naming the axes and the setting that reads them; nil for any other device.
    /// `remapped`: the position axes configured (`axes:`), if any.
    public func positionProblem(description: DeviceDescription, remapped: PositionAxes?) -> String? {
        guard contactsWithoutPosition > 0 else { return nil }
        let usual: (EventCode, EventCode)
        if let remapped {
            usual = (remapped.x, remapped.y)
        } else if description.multitouchProtocol == .singleTouch {
            usual = (.absX, .absY)
        } else {
            usual = (.absMTPositionX, .absMTPositionY)
        }
        let silent = [usual.0, usual.1].filter { !hasReported($0) }
        guard !silent.isEmpty else { return nil }
        let ignored: Set<EventCode> = [.absMTSlot, .absMTTrackingID, .absPressure, .absMTPressure, .absDistance,
                                       .absMTDistance, .absMTToolType, .absMTTouchMajor, .absMTTouchMinor,
                                       .absToolWidth, .absMTWidthMajor, .absMTWidthMinor, .absX, .absY,
                                       .absMTPositionX, .absMTPositionY]
        let moving = axes(of: description).moved.filter { !ignored.contains($0) }
        let names = { (codes: [EventCode]) in codes.map(AbsoluteAxisNames.name(of:)).joined(separator: ", ") }
        let contacts = contactsWithoutPosition == 1 ? "1 contact" : "\(contactsWithoutPosition) contacts"
        var sentence = "\(contacts) with no position: \(names(silent)) never moved"
        if moving.count >= 2 {
            sentence += "; \(names(moving)) moved: the position may be there (a broken report descriptor); "
                + "try `axes: { x: \(AbsoluteAxisNames.name(of: moving[0])), y: \(AbsoluteAxisNames.name(of: moving[1])) }` "
                + "in a `surfaces:` rule for this device (docs/input.md)"
        } else {
            sentence += "; no other axis moved"
        }
        return sentence
    }
}
