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
