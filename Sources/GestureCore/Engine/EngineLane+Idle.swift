extension EngineLane {
    /// Nothing in progress: no touch, no recognizer holding touches, waiting or decided. A lane of a
    /// device that is gone is dropped once it is idle (`GestureEngine.removeLane(device:)`).
    var isIdle: Bool {
        records.isEmpty && slots.allSatisfy { $0.touches.isEmpty && $0.state == .possible && $0.pending == nil }
    }
}
