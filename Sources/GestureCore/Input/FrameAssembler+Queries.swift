/// What others ask of a device's assembler between frames: the touch in a slot (forwarding), the
/// open touches, the axes seen (diagnostics), and where the position is read from (a live surface
/// change). The assembly itself is in FrameAssembler.swift.
extension FrameAssembler {
    /// The touch of the contact in protocol-B slot `slot`, if it is one (forwarding: `ForwardingEncoder`
    /// asks once per new contact). nil for an empty slot, a palm, a hovering contact.
    public func touchID(inSlot slot: Int) -> TouchID? {
        guard multitouchProtocol == .typeB, slot >= 0, slot < slots.slotCount,
              case .active = slots.slots[slot].state else { return nil }
        let key = slots.slots[slot].key
        for touch in open where touch.key == key && !touch.isSynthesized { return touch.id }
        return nil
    }

    /// Number of touches open now (for tests and diagnostics).
    public var openTouchCount: Int { open.count }

    /// Reads the position from `axes` (nil: the usual axes) from the next event on.
    mutating func setPositionAxes(_ axes: PositionAxes?) {
        axisRoute = axes ?? PositionAxes(x: .absX, y: .absY)
        remapsAxes = axes != nil
    }

    /// The axes reported so far and the contacts that went down with no known position (diagnostics:
    /// `AxisActivity.positionProblem`).
    public var axisActivity: AxisActivity {
        AxisActivity(reported: reportedAxes,
                     contactsWithoutPosition: slots.contactsWithoutPosition + single.contactsWithoutPosition)
    }
}
