import GestureCore

/// The desktop `--desktop-windows N` lays the corpus over, as a bridge would describe it: one
/// 1000 × 1000 output (every touchscreen's, being the only one) with N windows in a grid, the first
/// focused (every touchpad's), each one's neighbour on top of it where they overlap; every other
/// window matched by a rule that gives it a pinch and a two-finger pan of its own, so touches meet
/// window regions, the keep rule and rule gestures.
enum BenchDesktop {
    static func desktop(windows count: Int) -> Desktop {
        let columns = max(1, Int(Double(count).squareRoot().rounded(.up)))
        let rows = max(1, (count + columns - 1) / columns)
        let width = 1000 / Double(columns), height = 1000 / Double(rows)
        let windows = (0..<count).map { i in
            DesktopWindow(id: String(i + 1), app: i % 2 == 0 ? "bench-app" : "other", title: "window \(i + 1)",
                          output: "BENCH-1", x: Double(i % columns) * width, y: Double(i / columns) * height,
                          width: width * 1.1, height: height * 1.1, stack: i, focused: i == 0)
        }
        return Desktop(outputs: [DesktopOutput(name: "BENCH-1", width: 1000, height: 1000)], windows: windows)
    }

    static let rule: WindowRule = {
        var parameters = RecognizerParameters()
        parameters.minimumFingers = 2
        parameters.maximumFingers = 2
        let pan = RecognizerSpec(id: "bench-window-pan", kind: .pan, region: "", parameters: parameters)
        return WindowRule(id: "bench-app", match: WindowMatch(app: "bench-app"),
                          gestures: [RecognizerSpec(id: "bench-window-pinch", kind: .pinch, region: ""), pan])
    }()
}
