import GestureCore

/// The stress configuration of the benchmark: 50 regions (the root and a 7×7 grid of children) and
/// 100 recognizers (a tap and a pan on every child, a pinch and a 3-finger swipe on the root), so every
/// touch reaches several recognizers through the region chain.
enum StressConfiguration {
    static func make() -> EngineConfiguration {
        var children: [RegionSpec] = []
        var recognizers: [RecognizerSpec] = []
        let side = 7
        for row in 0..<side {
            for column in 0..<side {
                let id = "cell-\(row)-\(column)"
                let size = 100.0 / Double(side)
                children.append(RegionSpec(
                    id: id,
                    frame: RegionFrame(x: .percent(Double(column) * size), y: .percent(Double(row) * size),
                                       width: .percent(size), height: .percent(size))))
                recognizers.append(RecognizerSpec(id: "\(id)-tap", kind: .tap, region: id))
                var pan = RecognizerParameters()
                pan.minimumFingers = 1
                pan.maximumFingers = 2
                recognizers.append(RecognizerSpec(id: "\(id)-pan", kind: .pan, region: id, parameters: pan))
            }
        }
        var swipe = RecognizerParameters()
        swipe.fingers = 3
        swipe.directions = Set(SwipeDirection.allCases)
        recognizers.append(RecognizerSpec(id: "root-pinch", kind: .pinch, region: "screen"))
        recognizers.append(RecognizerSpec(id: "root-swipe", kind: .swipe, region: "screen", parameters: swipe))
        return EngineConfiguration(root: RegionSpec(id: "screen", children: children), recognizers: recognizers)
    }
}
