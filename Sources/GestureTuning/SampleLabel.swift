/// A labelled sample's label, from its file name: the last dotted part before the extension
/// (`.evemu`, `.events`, `.yaml`, `.yml`): `anything.swipe-3.evemu` is labelled `swipe-3`, the gesture
/// id it must give; `none` means it must give no gesture.
public enum SampleLabel {
    /// The label meaning "no gesture at all".
    public static let none = "none"
    /// The extensions a labelled sample may have.
    public static let extensions = ["evemu", "events", "yaml", "yml"]

    /// The label of a file (path or name), or nil when the name has no label part or another extension.
    public static func label(ofFile path: String) -> String? {
        let name = path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path
        let parts = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 3, let ext = parts.last, extensions.contains(ext) else { return nil }
        let label = parts[parts.count - 2]
        return label.isEmpty ? nil : label
    }
}
