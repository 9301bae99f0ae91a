extension EngineLane {
    /// Nothing in progress: no touch, no recognizer holding touches, waiting (for a timer or
    /// another recognizer) or decided. A lane of a device that is gone is dropped once it is idle
    /// (`GestureEngine.removeLane(device:)`); regions clients detached are compacted away only
    /// while every lane is idle (EngineLane+Reconfiguration.swift).
    var isIdle: Bool {
        records.isEmpty && cachedDeadline == nil && pendingCount == 0
            && slots.allSatisfy { $0.touches.isEmpty && $0.state == .possible && $0.pending == nil }
    }
}
