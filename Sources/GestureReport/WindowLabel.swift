import GestureCore

extension WindowName {
    /// The label, `window:12 (foot "~")`, with the title cut (ending in "…") so that it takes at most
    /// `columns` characters; when even an empty title does not fit, the app is cut too, and when
    /// that does not fit either, the region id alone.
    public func label(fitting columns: Int) -> String {
        label { $0.unicodeScalars.count <= columns }
    }

    /// The longest form of the label that `fits` accepts (as `label(fitting:)`; a picture measures
    /// its text in pixels).
    public func label(fits: (String) -> Bool) -> String {
        let whole = label
        if fits(whole) { return whole }
        func labelled(_ app: String, _ title: String) -> String { "\(regionID) (\(app) \"\(title)\")" }
        let title = Array(title.unicodeScalars)
        // The longest cut title that fits (fewer characters never make a label longer).
        var low = 0, high = title.count - 1
        var best: String?
        while low <= high {
            let middle = (low + high) / 2
            let candidate = labelled(app, Self.cut(title, middle))
            if fits(candidate) {
                best = candidate
                low = middle + 1
            } else {
                high = middle - 1
            }
        }
        if let best { return best }
        let app = Array(app.unicodeScalars)
        var n = app.count - 1
        while n >= 0 {
            let candidate = labelled(Self.cut(app, n), "…")
            if fits(candidate) { return candidate }
            n -= 1
        }
        return regionID
    }

    /// The first `count` characters and "…".
    private static func cut(_ scalars: [Unicode.Scalar], _ count: Int) -> String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars[0..<count])
        return String(view) + "…"
    }
}
