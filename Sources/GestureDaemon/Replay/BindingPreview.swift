import GestureCore
import GestureConfig
import GestureProtocol
import GestureRecording
import GestureReport
import Logging

/// `gestured replay --bindings`: the daemon's own `BindingDispatcher` in a dry run, fed the replay's
/// gesture events with their recorded times, and every firing printed (the keys, the command and
/// its environment) instead of pressed or run.
enum BindingPreview {
    static func dispatcher(for recordings: [Recording], _ configuration: Configuration,
                           printer: OutputPrinter) -> BindingDispatcher {
        let dispatcher = BindingDispatcher(dryRun: { firing in
            printer.print(note: text(firing), id: firing.gesture, time: firing.time, jsonLine: jsonLine(firing))
        }, logger: Logger(label: "gestured.replay"))
        let mappers = recordings.map { recording in
            (recording.description.name,
             SurfaceMapper(description: recording.description,
                           surface: configuration.surface(for: recording.description, kind: recording.description.kind,
                                                          path: recording.description.path ?? recording.source)))
        }
        dispatcher.unitsPerMM = { name in
            mappers.first(where: { $0.0 == name })?.1.surfaceUnitsPerMM ?? Point(x: 1, y: 1)
        }
        dispatcher.configure(configuration)
        return dispatcher
    }

    /// "keys leftctrl+leftalt+right, enter; run: CMD  with GESTURE_ID=… …"
    static func text(_ firing: BindingFiring) -> String {
        var parts: [String] = []
        let step = firing.step.map { $0 > 0 ? "step +1: " : "step -1: " } ?? ""
        if !firing.keys.isEmpty { parts.append("keys " + keyText(firing.keys)) }
        if let command = firing.command {
            let environment = firing.environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            parts.append("run: " + command + "  with " + environment.joined(separator: " "))
        }
        if let action = firing.action {
            parts.append(action.text + " " + (firing.window.map { "window:" + $0 } ?? "(no window)"))
        }
        return "→ " + step + (parts.isEmpty ? "nothing to do" : parts.joined(separator: "; "))
    }

    static func keyText(_ combos: [KeyCombo]) -> String {
        combos.map { $0.codes.map(KeyNames.name(of:)).joined(separator: "+") }.joined(separator: ", ")
    }

    /// `{"type":"binding","gesture":…,"time":…,"binding":N,"step":±1,"keys":[[…]],"command":…,"environment":{…}}`
    static func jsonLine(_ firing: BindingFiring) -> String {
        var j = JSONLine()
        j.add("type", "binding")
        j.add("gesture", firing.gesture)
        j.add("time", firing.time.seconds)
        j.add("binding", firing.index)
        if let step = firing.step { j.add("step", step) }
        if !firing.keys.isEmpty {
            let combos = firing.keys.map { ProtocolLine.strings($0.codes.map(KeyNames.name(of:))) }
            j.addRaw("keys", "[" + combos.joined(separator: ",") + "]")
        }
        if let command = firing.command {
            j.add("command", command)
            let fields = firing.environment.sorted { $0.key < $1.key }
                .map { ProtocolLine.string($0.key) + ":" + ProtocolLine.string($0.value) }
            j.addRaw("environment", "{" + fields.joined(separator: ",") + "}")
        }
        if let action = firing.action {
            j.add("action", action.text)
            if let window = firing.window { j.add("window", window) }
        }
        return j.line
    }
}
