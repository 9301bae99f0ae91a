import GestureCore
/// Which output a window given in global coordinates belongs to, for compositors that report windows
/// in one global space (GNOME, X11 with RandR).
enum OutputPlacement {
    /// The output holding the rectangle's centre, else the one it overlaps most; nil when it
    /// overlaps none.
    static func output(holding rect: (x: Double, y: Double, width: Double, height: Double), in outputs: [DesktopOutput]) -> DesktopOutput? {
        let cx = rect.x + rect.width / 2, cy = rect.y + rect.height / 2
        if let found = outputs.first(where: { cx >= $0.x && cx < $0.x + $0.width && cy >= $0.y && cy < $0.y + $0.height }) {
            return found
        }
        func overlap(_ o: DesktopOutput) -> Double {
            max(0, min(rect.x + rect.width, o.x + o.width) - max(rect.x, o.x)) * max(0, min(rect.y + rect.height, o.y + o.height) - max(rect.y, o.y))
        }
        return outputs.filter { overlap($0) > 0 }.max { overlap($0) < overlap($1) }
    }
}
