extension FrameAssembler {
    /// Maps this device onto a new surface (a screen rotated or resized while running). Meant for
    /// `size` and `rotation`: the device's mm (thresholds, palm size) do not depend on them. Call it
    /// between touch sequences (`hasOpenTouches` false), so no touch jumps mid-gesture.
    mutating func setSurface(_ newSurface: SurfaceConfiguration) {
        surface = newSurface
        mapper = SurfaceMapper(description: description, surface: newSurface)
    }
}
