extension GestureEngine {
    /// Forwards device `id` (or stops): its lane then publishes `EngineOutput.forwarding` verdicts
    /// (EngineLane+Forwarding.swift). Takes effect for touches that go down from now on.
    public mutating func setForwarding(device id: Int, _ on: Bool) {
        forwardedDevices.removeAll { $0 == id }
        if on { forwardedDevices.append(id) }
        for lane in laneDevices.indices where laneDevices[lane] == id {
            lanes[lane].forwarding.enabled = on
            if !on { lanes[lane].forwarding.touches.removeAll() }
        }
    }

    /// Whether device `id` is forwarded.
    public func isForwarded(device id: Int) -> Bool { forwardedDevices.contains(id) }
}

extension GestureEngine {
    /// Whether no verdict can come for device `id`'s forwarded touches from a frame that only moves
    /// them, `tracks` (its encoder's) being those touches (`EngineLane.forwardedTouchesSettled`).
    mutating func forwardingSettled(device id: Int, tracks: [ForwardingEncoder.Track]) -> Bool {
        var lane = 0
        while lane < laneDevices.count && laneDevices[lane] != id { lane += 1 }
        return lane < laneDevices.count && lanes[lane].forwardedTouchesSettled(covering: tracks)
    }
}
