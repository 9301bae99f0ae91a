/// What each device has shown of its axes (`AxisActivity`): for the daemon's log and `devices`
/// answer, and for `gestured replay`'s notes about a device whose position comes on other axes.
extension GesturePipeline {
    /// The axes device `id` reported and its contacts without a position; nil for no such device.
    public func axisActivity(ofDevice id: Int) -> AxisActivity? {
        assemblerIndex(id).map { assemblers[$0].axisActivity }
    }
}
