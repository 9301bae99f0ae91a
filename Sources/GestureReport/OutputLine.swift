import FoundationEssentials
import GestureCore

/// One line of the socket protocol or of `gestured replay` output, read back from its JSON:
/// the engine's outputs as the engine's own values, and the few other lines a listener sees.
public enum OutputLine: Hashable, Sendable {
    case engine(EngineOutput)
    /// `{"type":"dropped","count":N}`: lines this client missed because it read too slowly.
    case dropped(Int)
    /// `{"type":"error","message":...}`.
    case error(String)
    /// Any other line (hello, responses, types a newer daemon added), kept as its text.
    case other(type: String?, text: String)

    /// Decodes one JSON line; never fails (what is not understood becomes `.other`).
    public init(jsonLine: String) {
        guard let wire = try? JSONDecoder().decode(WireLine.self, from: Data(jsonLine.utf8)) else {
            self = .other(type: nil, text: jsonLine)
            return
        }
        self = wire.output(text: jsonLine)
    }

    /// Decodes one JSON line with the window it names (its `window` object, docs/protocol.md), if any.
    public static func withWindow(jsonLine: String) -> (OutputLine, WindowName?) {
        guard let wire = try? JSONDecoder().decode(WireLine.self, from: Data(jsonLine.utf8)) else {
            return (.other(type: nil, text: jsonLine), nil)
        }
        let line = wire.output(text: jsonLine)
        guard case .engine = line, let w = wire.window else { return (line, nil) }
        return (line, WindowName(id: w.id, app: w.app ?? "", title: w.title ?? "", rule: w.rule))
    }
}

/// The union of every line's keys; each is optional and read leniently (a key of an unexpected
/// type is treated as absent, so a response's string `"id"` does not spoil a touch line's number).
private struct WireLine: Decodable {
    struct WirePoint: Decodable {
        var x: Double
        var y: Double
        var point: Point { Point(x: x, y: y) }
    }

    struct WireWindow: Decodable {
        var id: String
        var app: String?
        var title: String?
        var rule: String?
    }

    var type: String?
    var gesture: String?
    var kind: String?
    var state: String?
    var time: Double?
    var device: String?
    var region: String?
    var fingers: Int?
    var taps: Int?
    var direction: String?
    var location: WirePoint?
    var translation: WirePoint?
    var velocity: WirePoint?
    var scale: Double?
    var rotation: Double?
    var scaleVelocity: Double?
    var rotationVelocity: Double?
    var phase: String?
    var id: UInt64?
    var tapCount: Int?
    var from: String?
    var to: String?
    var reason: String?
    var routine: Bool?
    var count: Int?
    var message: String?
    var window: WireWindow?
    var pressure: Double?
    var altitude: Double?
    var azimuth: Double?
    var distance: Double?
    var buttons: [String]?
    var chain: [String]?

    enum Key: String, CodingKey {
        case type, gesture, kind, state, time, device, region, fingers, taps, direction, location, translation
        case velocity, scale, rotation, scaleVelocity, rotationVelocity, phase, id, tapCount, from, to, reason, routine
        case count, message, window, pressure, altitude, azimuth, distance, buttons, chain
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        func get<T: Decodable>(_ key: Key) -> T? { (try? c.decodeIfPresent(T.self, forKey: key)) ?? nil }
        type = get(.type)
        gesture = get(.gesture)
        kind = get(.kind)
        state = get(.state)
        time = get(.time)
        device = get(.device)
        region = get(.region)
        fingers = get(.fingers)
        taps = get(.taps)
        direction = get(.direction)
        location = get(.location)
        translation = get(.translation)
        velocity = get(.velocity)
        scale = get(.scale)
        rotation = get(.rotation)
        scaleVelocity = get(.scaleVelocity)
        rotationVelocity = get(.rotationVelocity)
        phase = get(.phase)
        id = get(.id)
        tapCount = get(.tapCount)
        from = get(.from)
        to = get(.to)
        reason = get(.reason)
        routine = get(.routine)
        count = get(.count)
        message = get(.message)
        window = get(.window)
        pressure = get(.pressure)
        altitude = get(.altitude)
        azimuth = get(.azimuth)
        distance = get(.distance)
        buttons = get(.buttons)
        chain = get(.chain)
    }

    func output(text: String) -> OutputLine {
        switch type {
        case "gesture":
            guard let gesture, let kind = kind.flatMap(RecognizerKind.init(rawValue:)),
                  let state = state.flatMap(GestureState.init(rawValue:)), let time else { break }
            var event = GestureEvent(
                gesture: gesture, kind: kind, state: state, time: Timestamp(seconds: time), device: device ?? "",
                region: region ?? "", fingers: fingers ?? 0, taps: taps,
                direction: direction.flatMap(SwipeDirection.init(rawValue:)), location: location?.point,
                translation: translation?.point, velocity: velocity?.point, scale: scale, rotation: rotation,
                scalarVelocity: scaleVelocity ?? rotationVelocity)
            event.pressure = pressure
            return .engine(.gesture(event))
        case "touch":
            // A hover line's phase is no touch phase (docs/protocol.md, "Pens").
            let hover = phase.flatMap(PenHover.Phase.init(rawValue:))
            guard let touchPhase = hover == nil ? phase.flatMap(TouchPhase.init(rawValue:)) : .stationary,
                  let id, let location, let time else { break }
            var touch = TouchEvent(phase: touchPhase, id: TouchID(id), location: location.point, region: region,
                                   tapCount: tapCount ?? 1, time: Timestamp(seconds: time), device: device ?? "")
            touch.chain = chain
            // A pen's keys; a line with no `kind` is a finger's.
            if let type = kind.flatMap(TouchType.init(rawValue:)), type != .finger {
                touch.type = type
                touch.pressure = pressure
                touch.altitudeAngle = altitude
                touch.azimuthAngle = azimuth
                touch.distance = distance
                touch.buttons = (buttons ?? []).reduce(into: StylusButtons()) { $0.formUnion(StylusButtons(name: $1) ?? []) }
                touch.hoverPhase = hover
            }
            return .engine(.touch(touch))
        case "explain":
            guard let gesture, let from = from.flatMap(GestureState.init(rawValue:)),
                  let to = to.flatMap(GestureState.init(rawValue:)), let time else { break }
            return .engine(.explain(ExplainEvent(gesture: gesture, region: region ?? "", from: from, to: to,
                                                 time: Timestamp(seconds: time), reason: reason ?? "",
                                                 routine: routine ?? false)))
        case "dropped":
            if let count { return .dropped(count) }
        case "error":
            if let message { return .error(message) }
        default:
            break
        }
        return .other(type: type, text: text)
    }
}
