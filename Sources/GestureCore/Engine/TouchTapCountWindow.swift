extension EngineConfiguration {
    /// How close in time (ms) and space (mm) a touch-down must follow the previous touch's lift on
    /// the same device to continue its `tapCount` (UITouch.tapCount): the configured tap
    /// recognizers' own `max-interval` and `max-distance`, so a touch's tap count and the
    /// recognizers agree. With several, the widest of each (a touch continues the count whenever
    /// some tap recognizer would continue its sequence); long presses after taps (`taps` ≥ 2) count
    /// too. Without any enabled one, the defaults (300 ms, 10 mm).
    public var touchTapCountWindow: (interval: Double, distance: Double) {
        let counting = recognizers.filter {
            $0.enabled && ($0.kind == .tap || ($0.kind == .longPress && $0.parameters.taps > 1))
        }
        guard !counting.isEmpty else {
            let defaults = RecognizerParameters()
            return (defaults.tapInterval, defaults.tapDistance)
        }
        return (counting.map(\.parameters.tapInterval).max()!, counting.map(\.parameters.tapDistance).max()!)
    }
}
