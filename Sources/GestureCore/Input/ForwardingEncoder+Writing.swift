/// `ForwardingEncoder`'s writing side: the frames the clone gets when a frame is not written as it
/// came (released tracks' kept frames, frames computed from the tracks, the keys and the
/// single-touch emulation), and the bookkeeping of what the clone shows. The encoder's table and
/// state are in ForwardingEncoder.swift.
extension ForwardingEncoder {
    /// The kept frames of tracks released now, in order, each as a frame of its own, at `time` (the
    /// desktop gets them now).
    mutating func writeReleased(at time: Timestamp) {
        guard tracks.contains(where: \.releasing) else { return }
        for f in kept.indices {
            var wrote = false
            for e in kept[f].events {
                guard let k = index(of: e.track), tracks[k].releasing else { continue }
                // Its slot taken on the clone by another touch: what was kept cannot be shown.
                if tracks.contains(where: { $0.serial != e.track && $0.onClone && $0.slot == tracks[k].slot }) { continue }
                selectCloneSlot(tracks[k].slot, time)
                put(time, .abs, e.code, e.value)
                track(k, RawEvent(time: time, type: .abs, code: e.code, value: e.value))
                wrote = true
            }
            if wrote {
                _ = writeKeysAndEmulation(at: time, useSource: false)
                put(time, .syn, .synReport, 0)
            }
        }
        for k in tracks.indices where tracks[k].releasing {
            tracks[k].releasing = false
            let serial = tracks[k].serial
            for f in kept.indices { kept[f].events.removeAll { $0.track == serial } }
        }
        kept.removeAll { $0.events.isEmpty }
    }

    /// A frame computed from the tracks: lifts of withdrawn tracks, events of passing tracks, events
    /// of held tracks kept, keys and emulation from the clone's touches, other events passed.
    mutating func writeFrame(at time: Timestamp, live: Bool) {
        var wrote = false
        for k in tracks.indices where tracks[k].withdrawing {
            tracks[k].withdrawing = false
            guard tracks[k].onClone else { continue }
            selectCloneSlot(tracks[k].slot, time)
            put(time, .abs, .absMTTrackingID, -1)
            tracks[k].onClone = false
            wrote = true
        }
        var keptEvents: [(track: Int, code: EventCode, value: Int32)] = []
        for j in frame.indices {
            let e = frame[j]
            let serial = frameTracks[j]
            if serial != 0 {
                guard let k = index(of: serial) else { continue }
                switch tracks[k].status {
                case .passing:
                    if e.code == .absMTPositionX || e.code == .absMTPositionY {
                        guard let moved = shifted(k, e) else { continue }
                        selectCloneSlot(tracks[k].slot, time)
                        output.append(moved)
                        track(k, moved)
                        wrote = true
                        continue
                    }
                    if e.code == .absMTTrackingID && e.value >= 0 && tracks[k].onClone { continue }
                    if e.code != .absMTTrackingID && !tracks[k].onClone && e.code != .absMTToolType {
                        // A track released with its slot taken: shown from its next tracking id on.
                        if tracks.contains(where: { $0.serial != serial && $0.onClone && $0.slot == tracks[k].slot }) { continue }
                    }
                    if e.code == .absMTTrackingID && e.value < 0 && !tracks[k].onClone { continue }
                    selectCloneSlot(tracks[k].slot, time)
                    output.append(e)
                    track(k, e)
                    wrote = true
                case .held:
                    keptEvents.append((serial, e.code, e.value))
                case .withdrawn:
                    break
                }
                continue
            }
            if e.type == .abs && (e.code == .absMTSlot || e.code == .absX || e.code == .absY || e.code == .absPressure) {
                continue
            }
            if e.type == .abs && e.code == .absMTTrackingID { continue }
            if e.type == .key && Self.keyBit(e.code) != nil { continue }
            output.append(e)
            wrote = true
        }
        if !keptEvents.isEmpty { kept.append(KeptFrame(events: keptEvents)) }
        let everyonePasses = tracks.allSatisfy { $0.isPlain || ($0.status == .withdrawn && $0.sourceLifted) }
        if writeKeysAndEmulation(at: time, useSource: everyonePasses) { wrote = true }
        if everyonePasses && live {
            // Back in step: the clone's current slot is the source's.
            if cloneSlot != sourceSlot && sourceSlot >= 0 && wrote { selectCloneSlot(sourceSlot, time) }
            inStep = cloneSlot == sourceSlot && kept.isEmpty && cloneAbs == sourceAbs
        }
        if wrote { put(time, .syn, .synReport, 0) }
    }

    /// A passing track's position event as the clone gets it: nil while it is paused (its place on
    /// the source noted), else shifted by what it moved while paused, within the axis.
    @inline(__always)
    mutating func shifted(_ k: Int, _ e: RawEvent) -> RawEvent? {
        var e = e
        if e.code == .absMTPositionX {
            tracks[k].sourceX = e.value
            if tracks[k].paused { return nil }
            e.value = min(max(e.value &+ tracks[k].shiftX, xRange.lowerBound), xRange.upperBound)
        } else {
            tracks[k].sourceY = e.value
            if tracks[k].paused { return nil }
            e.value = min(max(e.value &+ tracks[k].shiftY, yRange.lowerBound), yRange.upperBound)
        }
        // A released track whose slot was taken on the clone is shown from its next tracking id on.
        if !tracks[k].onClone && tracks.contains(where: { $0.serial != tracks[k].serial && $0.onClone && $0.slot == tracks[k].slot }) {
            return nil
        }
        return e
    }

    /// Writes BTN_TOUCH / BTN_TOOL_* and ABS_X / ABS_Y / ABS_PRESSURE where they differ from what the
    /// clone shows: the source's own when every track passes, else computed from the clone's touches.
    mutating func writeKeysAndEmulation(at time: Timestamp, useSource: Bool) -> Bool {
        var keys: UInt8
        var abs = cloneAbs
        if useSource {
            keys = sourceKeys
            // No touch down: the source's last position is a touch's the clone never showed (a
            // withdrawn one's); the emulation stays where the clone left it.
            abs = keys & 1 != 0 ? sourceAbs : (cloneAbs.0, cloneAbs.1, sourceAbs.2)
        } else {
            var down = 0
            var oldest = -1
            for k in tracks.indices where tracks[k].onClone {
                down += 1
                if oldest < 0 || tracks[k].serial < tracks[oldest].serial { oldest = k }
            }
            keys = down > 0 ? 1 : 0
            if hasToolKeys && down > 0 { keys |= 1 << UInt8(min(down, 5)) }
            if oldest >= 0 { abs = (tracks[oldest].x, tracks[oldest].y, tracks[oldest].pressure) }
            if down == 0 { abs.2 = 0 }
        }
        var wrote = false
        if keys != cloneKeys {
            // Releases first, so a count change never shows two tool keys down.
            for pass in 0..<2 {
                for bit in 0..<6 {
                    let mask = UInt8(1) << UInt8(bit)
                    let on = keys & mask != 0
                    guard (cloneKeys & mask != 0) != on, on == (pass == 1) else { continue }
                    put(time, .key, Self.keyCodes[bit], on ? 1 : 0)
                }
            }
            cloneKeys = keys
            wrote = true
        }
        if hasSingleTouchAxes {
            if abs.0 != cloneAbs.0 { put(time, .abs, .absX, abs.0); wrote = true }
            if abs.1 != cloneAbs.1 { put(time, .abs, .absY, abs.1); wrote = true }
        }
        if hasPressure && abs.2 != cloneAbs.2 { put(time, .abs, .absPressure, abs.2); wrote = true }
        cloneAbs = abs
        return wrote
    }

    mutating func forgetFinished() {
        tracks.removeAll { t in
            t.sourceLifted && !t.onClone && t.status != .held && slotTrack[t.slot] != t.serial
        }
    }

    @inline(__always)
    mutating func selectCloneSlot(_ slot: Int, _ time: Timestamp) {
        guard slot != cloneSlot else { return }
        cloneSlot = slot
        put(time, .abs, .absMTSlot, Int32(slot))
    }

    @inline(__always)
    mutating func put(_ time: Timestamp, _ type: EventType, _ code: EventCode, _ value: Int32) {
        output.append(RawEvent(time: time, type: type, code: code, value: value))
    }

    static let keyCodes: [EventCode] = [.btnTouch, .btnToolFinger, .btnToolDoubleTap, .btnToolTripleTap,
                                        .btnToolQuadTap, .btnToolQuintTap]

    /// The key's bit in `sourceKeys` / `cloneKeys`: BTN_TOUCH bit 0, the finger-count tool of n
    /// fingers (`FingerCountTracker.fingers(for:)`) bit n.
    @inline(__always)
    static func keyBit(_ code: EventCode) -> UInt8? {
        if code == .btnTouch { return 1 }
        return FingerCountTracker.fingers(for: code).map { UInt8(1) << UInt8($0) }
    }
}
