/// A recognizer's slot as the lane keeps it: made from its spec, and set up for the device's kind
/// (settle time and distance, how pinch and rotation judge fingers, the swipe's style).
extension EngineLane {
    /// One recognizer's slot (also for recognizers attached at run time); its logic goes into `logics`.
    static func makeSlot(_ spec: RecognizerSpec, region: Int?) -> Slot {
        let p = spec.parameters
        return Slot(id: spec.id, name: InternedString(spec.id), kind: spec.kind, region: region ?? -1,
                    regionID: spec.region, regionName: InternedString(spec.region),
                    discrete: spec.kind.isDiscrete, taps: p.taps,
                    isSingleTap: spec.kind == .tap && p.taps == 1 && p.fingers == 1,
                    cancelsTouches: spec.cancelsTouches, delaysBegan: spec.delaysTouchesBegan,
                    delaysEnded: spec.delaysTouchesEnded,
                    claimsForwarded: spec.claimsForwarded, holdsForwarded: spec.holdsForwarded,
                    fingerRange: EngineLane.fingerRange(spec.kind, p),
                    configuredSettleTime: p.settleTime,
                    settleTime: p.settleTime ?? RecognizerParameters.defaultSettleTime(for: .touchscreen),
                    settleDistance: p.settleDistance, touchpadSettleDistance: p.touchpadSettleDistance,
                    touchscreenSettleDistance: p.settleDistance, tapInterval: p.tapInterval, swipeStyle: p.swipeStyle,
                    touchTypes: spec.touchTypes, buttons: spec.buttons)
    }

    /// Sets the lane up for its device's kind: each recognizer's settle time, whether pinch and rotation
    /// judge every finger, and the style of each swipe
    /// (`SwipeStyle.resolved(for:)`).
    mutating func configure(for kind: DeviceKind) {
        deviceKind = kind
        holdLimit = boundsHolds ? EngineLane.holdLimit(for: kind) : .infinity
        for r in slots.indices { applyDeviceKind(r) }
    }

    mutating func applyDeviceKind(_ r: Int) {
        slots[r].settleTime = slots[r].configuredSettleTime ?? RecognizerParameters.defaultSettleTime(for: deviceKind)
        slots[r].settleDistance = deviceKind == .touchpad ? slots[r].touchpadSettleDistance : slots[r].touchscreenSettleDistance
        // Touchpads judge a pinch or rotation on every finger down, as libinput does.
        logics.setJudgesAllFingers(r, deviceKind == .touchpad)
        guard slots[r].kind == .swipe else { return }
        let continuous = slots[r].swipeStyle.resolved(for: deviceKind) == .continuous
        slots[r].discrete = !continuous
        logics.setSwipeContinuous(r, continuous)
    }

    static func fingerRange(_ kind: RecognizerKind, _ p: RecognizerParameters) -> ClosedRange<Int> {
        switch kind {
        case .tap, .longPress, .swipe: return p.fingers...p.fingers
        case .pan, .edgePan: return max(p.minimumFingers, 1)...max(p.maximumFingers, p.minimumFingers, 1)
        case .pinch, .rotation: return 2...2
        }
    }
}
