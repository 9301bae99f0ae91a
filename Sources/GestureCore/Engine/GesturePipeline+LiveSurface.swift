/// Live surfaces: a device's rotation or size changed while the daemon runs (`set-surface`,
/// docs/protocol.md). A change applies from the device's next touch sequence on: at once when no
/// touch of the device is down, else right after the frame in which its last touch lifts. Gestures
/// in progress finish in the orientation they began in; the next ones (directions, translations,
/// edges) follow the new one, since touches reach the engine in surface coordinates.
extension GesturePipeline {
    /// Gives device `id` a new surface; false when there is no such device.
    @discardableResult
    public mutating func setSurface(_ surface: SurfaceConfiguration, device id: Int) -> Bool {
        guard let index = assemblerIndex(id) else { return false }
        pendingSurfaces[id] = surface
        applyPendingSurface(at: index)
        return true
    }

    /// The surface device `id` maps onto for its next touch sequence (a pending change included).
    public func surface(ofDevice id: Int) -> SurfaceConfiguration? {
        pendingSurfaces[id] ?? assemblerIndex(id).map { assemblers[$0].surface }
    }

    /// Applies the device's pending surface if none of its touches is down.
    mutating func applyPendingSurface(at index: Int) {
        let id = deviceIDs[index]
        guard let surface = pendingSurfaces[id], !assemblers[index].hasOpenTouches else { return }
        assemblers[index].setSurface(surface)
        pendingSurfaces[id] = nil
    }
}
