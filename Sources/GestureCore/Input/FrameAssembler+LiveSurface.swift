extension FrameAssembler {
    /// Maps this device onto a new surface (a screen rotated or resized while running). Meant for
    /// `size` and `rotation`: the device's mm (thresholds, palm size) do not depend on them. Call it
    /// between touch sequences (`hasOpenTouches` false), so no touch jumps mid-gesture.
    /// A change of `axes` applies too (a reload), from the next frame.
    mutating func setSurface(_ newSurface: SurfaceConfiguration) {
        surface = newSurface
        setPositionAxes(newSurface.axes)
        mapper = SurfaceMapper(description: description, surface: newSurface)
    }
}
