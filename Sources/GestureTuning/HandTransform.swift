import GestureCore

/// Makes a recording look like another hand did it: strokes `strokeScale` times as long,
/// `timeStretch` times as slow, and fingers landing `landingSpread` times as far apart. Pure and
/// deterministic; used to test that tuning carries over to hands other than the recorder's
/// (docs/tune.md, "Other hands").
///
/// With C the first contact's landing point (device units), a contact that landed at L and is
/// at P is moved to `C + landingSpread·(L − C) + strokeScale·(P − L)`: its landing point moves away
/// from (or towards) the first finger's, its path from there is scaled. Protocol-A and
/// single-touch devices (no contacts to tell apart) get `C + strokeScale·(P − C)`. Every
/// timestamp t becomes `t₀ + timeStretch·(t − t₀)`, so durations, intervals and the gaps between
/// fingers landing all stretch. Positions stay inside the axes' ranges; everything but positions
/// and times is kept.
public struct HandTransform: Sendable, Hashable {
    public var strokeScale: Double
    public var timeStretch: Double
    public var landingSpread: Double

    public init(strokeScale: Double = 1, timeStretch: Double = 1, landingSpread: Double = 1) {
        self.strokeScale = strokeScale
        self.timeStretch = timeStretch
        self.landingSpread = landingSpread
    }

    private struct Slot {
        var x: Int32
        var y: Int32
        var active = false
        var landing: (x: Double, y: Double)?
    }

    public func apply(to events: [RawEvent], description: DeviceDescription) -> [RawEvent] {
        guard let origin = events.first?.time else { return [] }
        let typeB = description.multitouchProtocol == .typeB
        let xInfo = description.absInfo[.absMTPositionX] ?? description.absInfo[.absX]
        let yInfo = description.absInfo[.absMTPositionY] ?? description.absInfo[.absY]
        var slots = [Slot](repeating: Slot(x: description.absInfo[.absMTPositionX]?.value ?? 0,
                                           y: description.absInfo[.absMTPositionY]?.value ?? 0),
                           count: max(1, typeB ? description.slotCount : 1))
        var slot = Int(description.absInfo[.absMTSlot]?.value ?? 0)
        var anchor: (x: Double, y: Double)?
        var pendingX: Int32?
        var result: [RawEvent] = []
        result.reserveCapacity(events.count + 16)
        var frame: [RawEvent] = []

        func time(_ t: Timestamp) -> Timestamp {
            Timestamp(microseconds: origin.microseconds
                      + Int64((Double(t.microseconds - origin.microseconds) * timeStretch).rounded()))
        }
        func clamp(_ v: Double, _ info: AbsInfo?) -> Int32 {
            guard let info else { return Int32(v.rounded()) }
            return Int32(min(max(v.rounded(), Double(info.minimum)), Double(info.maximum)))
        }
        func moved(_ value: Int32, isX: Bool, landing: (x: Double, y: Double)?) -> Int32 {
            guard let anchor else { return value }
            let c = isX ? anchor.x : anchor.y
            let info = isX ? xInfo : yInfo
            guard let landing else { return clamp(c + strokeScale * (Double(value) - c), info) }
            let l = isX ? landing.x : landing.y
            return clamp(c + landingSpread * (l - c) + strokeScale * (Double(value) - l), info)
        }

        func flush(_ frame: [RawEvent]) {
            // Pass 1: the contacts' state at the frame's end; which landed in it.
            let startSlot = slot
            var landed: [Int] = []
            var s = slot
            for e in frame where e.type == .abs {
                switch e.code {
                case .absMTSlot: s = Int(e.value)
                case .absMTTrackingID where typeB && s >= 0 && s < slots.count:
                    if e.value >= 0 && !slots[s].active { slots[s].active = true; landed.append(s) }
                    if e.value < 0 { slots[s].active = false; slots[s].landing = nil }
                case .absMTPositionX where s >= 0 && s < slots.count: slots[s].x = e.value
                case .absMTPositionY where s >= 0 && s < slots.count: slots[s].y = e.value
                default: break
                }
                if !typeB && anchor == nil {
                    if e.code == .absMTPositionX || e.code == .absX { pendingX = e.value }
                    if (e.code == .absMTPositionY || e.code == .absY), let x = pendingX {
                        anchor = (Double(x), Double(e.value))
                    }
                }
            }
            for l in landed { slots[l].landing = (Double(slots[l].x), Double(slots[l].y)) }
            if anchor == nil, let first = landed.first { anchor = slots[first].landing }
            // Pass 2: the frame with its positions moved.
            var wroteX = Set<Int>(), wroteY = Set<Int>()
            s = startSlot
            for e in frame {
                var out = e
                out.time = time(e.time)
                if e.type == .abs {
                    let contact = typeB && s >= 0 && s < slots.count ? slots[s].landing : nil
                    switch e.code {
                    case .absMTSlot: s = Int(e.value)
                    case .absMTPositionX: out.value = moved(e.value, isX: true, landing: contact); wroteX.insert(s)
                    case .absMTPositionY: out.value = moved(e.value, isX: false, landing: contact); wroteY.insert(s)
                    case .absX: out.value = moved(e.value, isX: true, landing: nil)
                    case .absY: out.value = moved(e.value, isX: false, landing: nil)
                    default: break
                    }
                }
                if e.isSynReport {
                    // A contact landing where the slot's old value was is not sent again by the
                    // kernel; its moved position differs, so it is written out.
                    var selected = s
                    for l in landed where !wroteX.contains(l) || !wroteY.contains(l) {
                        let t = out.time
                        result.append(RawEvent(time: t, type: .abs, code: .absMTSlot, value: Int32(l)))
                        selected = l
                        if !wroteX.contains(l) {
                            result.append(RawEvent(time: t, type: .abs, code: .absMTPositionX,
                                                   value: moved(slots[l].x, isX: true, landing: slots[l].landing)))
                        }
                        if !wroteY.contains(l) {
                            result.append(RawEvent(time: t, type: .abs, code: .absMTPositionY,
                                                   value: moved(slots[l].y, isX: false, landing: slots[l].landing)))
                        }
                    }
                    if selected != s { result.append(RawEvent(time: out.time, type: .abs, code: .absMTSlot, value: Int32(s))) }
                }
                result.append(out)
            }
            slot = s
        }

        for event in events {
            frame.append(event)
            if event.isSynReport {
                flush(frame)
                frame.removeAll(keepingCapacity: true)
            }
        }
        if !frame.isEmpty { flush(frame) }
        return result
    }
}
