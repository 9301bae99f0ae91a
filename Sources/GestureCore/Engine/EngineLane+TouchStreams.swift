extension EngineLane {
    // MARK: - Touches

    func recordIndex(_ id: TouchID) -> Int {
        var i = 0
        while i < records.count {
            if records[i].id == id { return i }
            i += 1
        }
        return -1
    }

    mutating func layoutIndex(for size: Point) -> Int {
        if let i = layouts.firstIndex(where: { $0.size == size }) { return i }
        if layouts.count >= 8 { layouts.removeFirst() }
        layouts.append(tree.layout(for: size))
        return layouts.count - 1
    }

    mutating func newRecord(_ touch: Touch, frame: TouchFrame, layout: Int) -> Int {
        // Asked of the tree, not of the lane: a call on the lane here copied the whole lane.
        var region = tree.hitRegion(touch.location, layout: layouts[layout], deviceKind: frame.device.kind,
                                    output: boundOutput, touchpadWindow: touchpadWindow) ?? -1
        if tree.hasKeepingRegions { region = joinFirstFinger(region, at: frame.time) }
        // The recognizers the touch is bound to: the region chain's own array unless a recognizer is
        // busy with another device's touches (then a filtered copy). Records of touches in the same
        // region share one buffer (`seenTouchesShareRecognizers` sees it at once); nothing is allocated.
        // A contact the hygiene hides from landing (a palm, a thumb) is bound to no recognizer.
        let recs = hygiene.isHidden(touch.id) ? [] : bindRecognizers(touch, frame: frame, region: region)
        let responder = region >= 0 ? tree.responder(for: region) : nil
        records.append(TouchRecord(id: touch.id, region: region, regionID: region >= 0 ? tree.nodes[region].id : nil,
                                   recognizers: recs, publishes: responder != nil || tree.streamsEveryTouch,
                                   responderID: responder.map { tree.nodes[$0].id }, lastLocation: touch.location,
                                   tapCount: touch.tapCount,
                                   beganLocation: touch.location, beganTime: frame.time))
        return records.count - 1
    }

    /// Binds a touch to the recognizers of its region chain (nearest first), counting it in each, and
    /// returns them: the chain's own array unless a recognizer is busy with another device's touches
    /// (then a filtered copy). Records of touches in the same region share one buffer
    /// (`seenTouchesShareRecognizers` sees it at once); nothing is allocated.
    mutating func bindRecognizers(_ touch: Touch, frame: TouchFrame, region: Int) -> [Int] {
        var recs: [Int] = region >= 0 ? tree.nodes[region].delivery : []
        var filtered = false
        if region >= 0 {
            for (k, r) in tree.nodes[region].delivery.enumerated() {
                // Busy with another device's touches, or not taking this touch's type or buttons
                // (`touch-types:`, `buttons:`): the one place a recognizer's touches are chosen.
                let busy = slots[r].device.map { $0 != frame.device.id } ?? false
                if busy || !slots[r].touchTypes.allows(touch.type) || slots[r].buttons != touch.buttons {
                    if !filtered {
                        filtered = true
                        recs = Array(tree.nodes[region].delivery[..<k])
                    }
                    continue
                }
                if slots[r].touches.isEmpty {
                    if !slots[r].keptWaits.isEmpty { slots[r].keptWaits.removeAll() }
                    slots[r].device = frame.device.id
                    slots[r].deviceName = frame.device.internedName
                    slots[r].sequenceStart = frame.time
                }
                slots[r].touches.append(touch.id)
                slots[r].active += 1
                if filtered { recs.append(r) }
                if explains {
                    let chain = tree.nodes[region].id == slots[r].regionID
                        ? "its region" : "region '\(tree.nodes[region].id)' inside '\(slots[r].regionID)'"
                    receivedExplains.append(.explain(ExplainEvent(
                        gesture: slots[r].id, region: slots[r].regionID, from: slots[r].state, to: slots[r].state,
                        time: frame.time,
                        reason: "received touch \(touch.id) at (\(JSONLine.number(touch.location.x)), "
                            + "\(JSONLine.number(touch.location.y))), hit \(chain)", routine: true)))
                }
            }
        }
        if region >= 0 && !tree.nodes[region].deliveryBands.isEmpty { bindKeptWaits(region, filtered ? recs : nil) }
        return recs
    }

    /// A palm the hygiene now counts as a finger: bound to its region's recognizers from this frame,
    /// as if it landed here.
    mutating func bindReleasedPalm(_ ri: Int, _ touch: Touch, frame: TouchFrame) {
        let region = records[ri].region
        guard records[ri].recognizers.isEmpty, region >= 0 else { return }
        records[ri].recognizers = bindRecognizers(touch, frame: frame, region: region)
        records[ri].beganLocation = touch.location
        records[ri].settleOrigin = nil
        // A forwarded palm passed to the clone; its gestures may now claim it (and withdraw it there).
        if forwarding.enabled, let k = forwarding.touches.firstIndex(where: { $0.id == touch.id }) {
            forwarding.touches[k].recognizers = records[ri].recognizers
        }
    }

    /// Multi-finger gestures over windows (docs/desktop.md, "One gesture, one window"): a finger that
    /// lands while the first finger of its sequence is down, within the settle time after it
    /// (300 ms on touchscreens, 150 ms on touchpads), joins the first finger's region when that is a
    /// window or an output (the bare desktop); each other finger hit-tests on its own, as in UIKit.
    mutating func joinFirstFinger(_ hit: Int, at time: Timestamp) -> Int {
        var othersDown = false
        for k in records.indices where !records[k].terminal && records[k].region >= 0 { othersDown = true }
        guard othersDown else {
            firstFinger = (hit >= 0 && tree.nodes[hit].role != .plain) ? hit : -1
            firstFingerID = firstFinger >= 0 ? tree.nodes[firstFinger].id : ""
            firstFingerTime = time
            return hit
        }
        guard firstFinger >= 0, firstFinger < tree.nodes.count, tree.nodes[firstFinger].id == firstFingerID,
              hit != firstFinger,
              time.milliseconds(since: firstFingerTime) <= RecognizerParameters.defaultSettleTime(for: deviceKind)
        else { return hit }
        // Not where the config's own regions lie on top of the desktop (an edge strip, a launcher):
        // only a finger that hit the desktop's regions (or the bare root) joins.
        guard hit <= 0 || tree.nodes[hit].role != .plain else { return hit }
        return firstFinger
    }

    func blocks(_ ri: Int, began: Bool) -> Bool {
        let id = records[ri].id
        for r in records[ri].recognizers {
            guard began ? slots[r].delaysBegan : slots[r].delaysEnded, slots[r].state == .possible else { continue }
            if slots[r].touches.contains(id) { return true }
        }
        return false
    }

    func touchEvent(_ ri: Int, _ phase: TouchPhase, at location: Point) -> EngineOutput {
        var event = TouchEvent(phase: phase, id: records[ri].id, location: location, region: records[ri].regionID,
                               responder: records[ri].responderID, tapCount: records[ri].tapCount, time: now,
                               device: deviceName)
        if phase == .began { event.chain = chainNames(of: ri) }
        if let pen = records[ri].pen {
            event.type = pen.type
            event.pressure = pen.pressure
            event.altitudeAngle = pen.altitude
            event.azimuthAngle = pen.azimuth
            event.buttons = pen.buttons
        }
        return .touch(event)
    }

    /// The ids of touch record `ri`'s hit chain: its region, then the ancestors up to the root (empty
    /// when it hit nothing, or when its region has gone since).
    func chainNames(of ri: Int) -> [String] {
        let region = records[ri].region
        guard region >= 0, region < tree.nodes.count, tree.nodes[region].id == records[ri].regionID else { return [] }
        return tree.chain(from: region).map { tree.nodes[$0].id }
    }

    @inline(__always)
    mutating func deliverStreams(_ frame: TouchFrame, _ out: inout [EngineOutput]) {
        for touch in frame.touches {
            let ri = recordIndex(touch.id)
            guard ri >= 0, records[ri].publishes, !records[ri].closed else { continue }
            switch touch.phase {
            case .began:
                if blocks(ri, began: true) {
                    records[ri].beganHeld = true
                } else {
                    out.append(touchEvent(ri, .began, at: touch.location))
                    records[ri].beganDelivered = true
                }
            case .moved:
                if records[ri].beganDelivered { out.append(touchEvent(ri, .moved, at: touch.location)) }
            case .stationary:
                break
            case .ended:
                if records[ri].beganDelivered && !blocks(ri, began: false) {
                    out.append(touchEvent(ri, .ended, at: touch.location))
                    records[ri].closed = true
                } else {
                    records[ri].endedHeld = true
                }
            case .cancelled:
                if records[ri].beganDelivered { out.append(touchEvent(ri, .cancelled, at: touch.location)) }
                records[ri].closed = true
                records[ri].beganHeld = false
                records[ri].endedHeld = false
            }
        }
    }

    /// Releases held began / ended events whose delaying recognizers have decided.
    @inline(__always)
    mutating func flushHeld(_ out: inout [EngineOutput]) {
        for ri in records.indices where !records[ri].closed && (records[ri].beganHeld || records[ri].endedHeld) {
            if records[ri].beganHeld && !blocks(ri, began: true) {
                records[ri].beganHeld = false
                records[ri].beganDelivered = true
                out.append(touchEvent(ri, .began, at: records[ri].beganLocation))
                if records[ri].lastLocation != records[ri].beganLocation {
                    out.append(touchEvent(ri, .moved, at: records[ri].lastLocation))
                }
            }
            if records[ri].endedHeld && records[ri].beganDelivered && !blocks(ri, began: false) {
                records[ri].endedHeld = false
                records[ri].closed = true
                out.append(touchEvent(ri, .ended, at: records[ri].lastLocation))
            }
        }
    }

    /// cancels-touches: the recognizer's touches are cancelled on their regions' streams.
    mutating func cancelTouches(of r: Int, _ out: inout [EngineOutput]) {
        for id in slots[r].touches {
            let ri = recordIndex(id)
            guard ri >= 0, records[ri].publishes, !records[ri].closed else { continue }
            if records[ri].beganDelivered { out.append(touchEvent(ri, .cancelled, at: records[ri].lastLocation)) }
            records[ri].closed = true
            records[ri].beganHeld = false
            records[ri].endedHeld = false
        }
    }

}
