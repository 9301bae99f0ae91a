/// Fingers a device reports without positions (BTN_TOOL_* counts beyond its slots), and the contacts
/// it reports too large to be fingers: the parts of frame assembly that decide what a contact is.
extension FrameAssembler {
    /// BTN_TOOL_* counts above what the device can report: add (or remove) synthesized touches at
    /// the centroid of the real ones. Returns whether any synthesized touch changed.
    @inline(__always)
    mutating func synthesizeFingers(at time: Timestamp, ids: inout TouchIDGenerator) -> Bool {
        var real = 0
        var location = Point.zero, physical = Point.zero
        for touch in open where !touch.isSynthesized {
            real += 1
            location += touch.location
            physical += touch.physical
        }
        let wanted = fingerCount.count > capacity && real > 0 ? fingerCount.count - real : 0
        if real > 0 {
            location = location / Double(real)
            physical = physical / Double(real)
        }
        var changed = false
        var kept = 0
        var index = 0
        while index < open.count {
            guard open[index].isSynthesized else { index += 1; continue }
            let touch = open[index]
            if kept < wanted {
                kept += 1
                var updated = touch
                updated.location = location
                updated.physical = physical
                if keep(updated, at: index, time: time) { changed = true }
                index += 1
            } else {
                output.append(makeTouch(touch, phase: .ended, previous: touch, time: time))
                open.remove(at: index)
                changed = true
            }
        }
        while kept < wanted {
            kept += 1
            let touch = OpenTouch(key: 0, id: ids.make(), location: location, physical: physical, pressure: nil,
                                  major: nil, tapCount: tapCounter.tapCount(downAt: time, location: physical),
                                  isSynthesized: true)
            open.append(touch)
            output.append(makeTouch(touch, phase: .began, previous: touch, time: time))
            changed = true
        }
        return changed
    }

    @inline(__always)
    func isOversized(_ sample: ContactSample) -> Bool {
        sizeIsKnown && sample.hasMajor && Double(sample.major) / majorUnitsPerMM >= palmMajorAxis
    }

    /// A touchpad finger told by pressure (`TouchPressure`) that is too light to be a finger yet: it
    /// becomes a touch once it presses `begin` (a contact lighter than that is hovering, for libinput).
    @inline(__always)
    func tooLightToBegin(_ sample: ContactSample) -> Bool {
        guard let touchPressure, sample.hasPressure, sample.type == .finger else { return false }
        return sample.pressure < touchPressure.begin
    }

    /// A touchpad finger told by pressure whose pressure fell below `end`: it lifts (and may land again
    /// as a new touch when it presses `begin` again).
    @inline(__always)
    func liftsByPressure(_ sample: ContactSample) -> Bool {
        guard let touchPressure, sample.hasPressure, sample.type == .finger else { return false }
        return sample.pressure < touchPressure.end
    }

    @inline(__always)
    func update(_ touch: inout OpenTouch, from sample: ContactSample) {
        touch.location = mapper.surface(x: sample.x, y: sample.y)
        touch.physical = mapper.physical(x: sample.x, y: sample.y)
        if sample.hasPressure && pressureRange > 0 {
            touch.pressure = min(1, max(0, (Double(sample.pressure) - pressureMinimum) / pressureRange))
        }
        if sample.hasMajor { touch.major = Double(sample.major) / majorUnitsPerMM }
        if isPen {
            touch.type = pen.type
            touch.buttons = pen.buttons
            if let penTilt, pen.hasTilt {
                (touch.altitude, touch.azimuth) = penTilt.angles(x: pen.tiltX, y: pen.tiltY, rotation: surface.rotation)
            }
        }
    }
}
