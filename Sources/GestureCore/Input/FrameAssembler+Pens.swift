/// A pen interface's part of frame assembly: how near the device's pen is, palm rejection of fingers
/// landing while it is, and the hover it reports between touches (docs/input.md, "Pens").
extension FrameAssembler {
    /// How near this device's own pen is: a pen interface's tool, or a slot's MT_TOOL_PEN contact.
    public var penProximity: PenProximity {
        if isPen { return pen.proximity }
        for touch in open where touch.type != .finger { return .down }
        return .away
    }

    /// Whether a finger landing now is ignored (palm rejection: the surface's setting, with this
    /// device's pen or a sibling's near or down).
    func rejectsFingers() -> Bool {
        let mode = surface.palmRejection
        guard mode != .off else { return false }
        var nearest = siblingPen
        if isPen { nearest = max(nearest, pen.proximity) }
        for index in samples.indices where samples[index].type != .finger { nearest = .down }
        return mode.rejects(nearest)
    }

    /// A pen interface's hover at this frame: a `hovering` sample when the pen is in range and not
    /// touching and it moved (or a contact came between), `hover-ended` when it left the range.
    /// Returns whether the frame carries one.
    mutating func updateHover(ids: inout TouchIDGenerator) -> Bool {
        switch pen.state {
        case .hovering:
            guard pen.hasPosition else { return false }
            let location = mapper.surface(x: pen.x, y: pen.y)
            let physical = mapper.physical(x: pen.x, y: pen.y)
            if hoverPublishedAt == physical, let last = pendingHoverBase, last.type == pen.type, last.buttons == pen.buttons {
                return false
            }
            let id = hoverID ?? ids.make()
            hoverID = id
            hoverPublishedAt = physical
            hoverLocation = location
            hoverPhysical = physical
            var hover = PenHover(id: id, phase: .hovering, type: pen.type, location: location, physicalLocation: physical,
                                 buttons: pen.buttons)
            if pen.hasDistance && distanceRange > 0 {
                hover.distance = min(1, max(0, (Double(pen.distance) - distanceMinimum) / distanceRange))
            }
            if let penTilt, pen.hasTilt {
                (hover.altitudeAngle, hover.azimuthAngle) = penTilt.angles(x: pen.tiltX, y: pen.tiltY, rotation: surface.rotation)
            }
            pendingHover = hover
            pendingHoverBase = hover
            return true
        case .touching:
            hoverPublishedAt = nil
            return false
        case .away:
            guard let id = hoverID else { return false }
            endHover(id)
            return true
        }
    }

    mutating func endHover(_ id: TouchID) {
        pendingHover = PenHover(id: id, phase: .ended, type: pen.type, location: hoverLocation,
                                physicalLocation: hoverPhysical, buttons: pen.buttons)
        hoverID = nil
        hoverPublishedAt = nil
        pendingHoverBase = nil
    }
}
