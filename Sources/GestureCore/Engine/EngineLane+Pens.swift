extension EngineLane {
    // MARK: - Pens

    /// What a pen's touch line carries beyond a finger's.
    struct PenValues: Sendable {
        var type: TouchType
        var pressure: Double?
        var altitude: Double?
        var azimuth: Double?
        var buttons: StylusButtons

        init(_ touch: Touch) {
            type = touch.type
            pressure = touch.pressure
            altitude = touch.altitudeAngle
            azimuth = touch.azimuthAngle
            buttons = touch.buttons
        }
    }

    /// The touch stream a pen's hover goes to (`publishHover`), while one is open.
    struct HoverStream: Sendable {
        var id: TouchID
        var region: Int
        var responder: Int
    }

    /// A pen's hover goes to the touch stream of the region under it (the responder chain, as a
    /// touch's does), never to a recognizer. When the stream under it changes, the old stream gets
    /// `hover-ended` first, so every stream sees its hover end (docs/protocol.md, "Pens").
    ///
    /// | hover stream | hover sample                      | emits / next stream                       |
    /// |--------------|-----------------------------------|-------------------------------------------|
    /// | none         | hovering over a stream S          | hovering on S / S                         |
    /// | none         | hovering over no stream, or ended | — / none                                  |
    /// | S            | hovering over S                   | hovering on S / S                         |
    /// | S            | hovering over another stream T    | hover-ended on S, hovering on T / T       |
    /// | S            | hovering over no stream           | hover-ended on S / none                   |
    /// | S            | ended                             | hover-ended on S / none                   |
    ///
    /// With a client subscribed to every touch (`streamsEveryTouch`), no consumer up to the root is a
    /// stream of its own (no responder), so such a hover is streamed too.
    mutating func publishHover(_ hover: PenHover, frame: TouchFrame, _ out: inout [EngineOutput]) {
        var region = -1, responder = -1
        if hover.phase == .hovering {
            let layout = layoutIndex(for: frame.surfaceSize)
            region = tree.hitRegion(hover.location, layout: layouts[layout], deviceKind: frame.device.kind,
                                    output: boundOutput, touchpadWindow: touchpadWindow) ?? -1
            if region >= 0 { responder = tree.responder(for: region) ?? -1 }
        }
        if let open = hoverStream, hover.phase != .hovering || open.responder != responder || open.id != hover.id {
            var ended = hover
            ended.phase = .ended
            ended.id = open.id
            out.append(hoverEvent(ended, region: open.region, responder: open.responder))
            hoverStream = nil
        }
        guard hover.phase == .hovering, responder >= 0 || tree.streamsEveryTouch else { return }
        hoverStream = HoverStream(id: hover.id, region: region, responder: responder)
        out.append(hoverEvent(hover, region: region, responder: responder))
    }

    /// The mean pressure of the recognizer's pen touches at their latest frame (nil: none reports one).
    func penPressure(_ r: Int) -> Double? {
        var sum = 0.0, n = 0.0
        for id in slots[r].touches {
            let ri = recordIndex(id)
            guard ri >= 0, let pressure = records[ri].pen?.pressure else { continue }
            sum += pressure
            n += 1
        }
        return n > 0 ? sum / n : nil
    }

    func hoverEvent(_ hover: PenHover, region: Int, responder: Int) -> EngineOutput {
        var event = TouchEvent(hover, time: now,
                               region: region >= 0 && region < tree.nodes.count ? tree.nodes[region].id : nil,
                               device: deviceName)
        event.responder = responder >= 0 && responder < tree.nodes.count ? tree.nodes[responder].id : nil
        return .touch(event)
    }
}
