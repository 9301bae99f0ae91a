import Foundation
import Glibc
import GestureConfig
import GestureProtocol
import GestureReport
import GestureYAML

/// The settings page's server side (docs/view.md, "Settings"): reads the daemon's config file
/// (the one its `status` names), describes its gestures and bindings to the page, and saves an
/// edit — written into the text by `ConfigTextEdit` (comments and order kept), checked by the
/// config loader `gestured check-config` uses, then written through a temporary file renamed over
/// the old one (which is kept as FILE.bak), and the daemon asked to `reload`. A refused edit
/// leaves the file untouched and answers with the loader's file:line:column errors.
public final class SettingsStore: Sendable {
    public let socketPath: String

    public init(socketPath: String) {
        self.socketPath = socketPath
    }

    /// An answer to the page: HTTP status and a JSON object.
    public struct Answer: Sendable {
        public var status: Int
        public var json: String
    }

    // MARK: the daemon

    enum Refusal: Error { case message(String) }

    /// The daemon's config file: `status`'s `config`, which must be an absolute path to a file.
    func configPath() throws(Refusal) -> String {
        let status: String
        do { status = try ask("{\"request\":\"status\"}") } catch {
            throw .message("cannot reach gestured at \(socketPath) to learn its config file (\(error))")
        }
        guard let config = JSONValue(parsing: status)?["config"]?.stringValue else {
            throw .message("the daemon's status names no config file: \(status)")
        }
        guard config.hasPrefix("/") else {
            throw .message(config == "default"
                ? "the daemon runs the embedded default config, which has no file to edit: write one (gesturectl setup) and restart or reload the daemon with it"
                : "the daemon's config '\(config)' is not an absolute path; start it with an absolute --config")
        }
        return config
    }

    private func ask(_ request: String) throws -> String {
        let client = try ControlClient(path: socketPath)
        _ = try client.readLine(timeout: 5000)
        try client.send(request)
        while let line = try client.readLine(timeout: 10000) {
            if line.hasPrefix("{\"type\":\"response\"") || line.hasPrefix("{\"type\":\"error\"") { return line }
        }
        throw Refusal.message("the daemon closed the connection")
    }

    // MARK: describing

    /// GET settings: the file, its gestures and bindings as written, and the key names.
    public func describe() -> Answer {
        let path: String
        do { path = try configPath() } catch {
            if case .message(let why) = error {
                return json(200, ["editable": false, "reason": why, "keyNames": KeyNames.all])
            }
            return json(500, ["error": "\(error)"])
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            return json(200, ["editable": false, "file": path, "reason": "cannot read \(path)", "keyNames": KeyNames.all])
        }
        let text = String(decoding: data, as: UTF8.self)
        var object: [String: Any] = ["editable": true, "file": path, "version": Self.version(data),
                                     "keyNames": KeyNames.all]
        do throws(ConfigErrors) {
            _ = try ConfigurationLoader.parse(text, file: path)
        } catch {
            object["error"] = error.description
        }
        let root = (try? YAMLComposer.compose(text))?.mapping
        var gestures: [[String: Any]] = []
        func describeGesture(_ node: Node, rule: String?) {
            guard let m = node.mapping, let id = m["id"]?.string else { return }
            var g: [String: Any] = ["id": id, "kind": m["kind"]?.string ?? "", "line": node.mark?.line ?? 0]
            if let rule { g["rule"] = rule } else { g["region"] = m["region"]?.string ?? "" }
            for key in ["fingers", "min-fingers", "max-fingers"] { if let v = m[key]?.string { g[key] = v } }
            if let d = m["directions"] ?? m["edges"] {
                g["directions"] = d.sequence?.items.compactMap(\.string) ?? [d.string ?? ""]
            }
            gestures.append(g)
        }
        for node in root?["gestures"]?.sequence?.items ?? [] { describeGesture(node, rule: nil) }
        var rules: [String] = []
        for rule in root?["windows"]?.sequence?.items.compactMap(\.mapping) ?? [] {
            guard let id = rule["id"]?.string else { continue }
            rules.append(id)
            for node in rule["gestures"]?.sequence?.items ?? [] { describeGesture(node, rule: id) }
        }
        var bindings: [[String: Any]] = []
        for (index, node) in (ConfigTextEdit.bindingItems(root)?.items ?? []).enumerated() {
            guard let m = node.mapping else { continue }
            var b: [String: Any] = ["index": index, "gesture": m["gesture"]?.string ?? "", "line": node.mark?.line ?? 0]
            if let c = m["command"]?.string { b["command"] = c }
            if let keys = m["keys"]?.sequence {
                let combos = keys.items.allSatisfy { $0.sequence != nil }
                    ? keys.items.map { $0.sequence!.items.compactMap(\.string) }
                    : [keys.items.compactMap(\.string)]
                b["keys"] = combos
            }
            let others = m.pairs.filter { !["gesture", "command", "keys"].contains($0.key.string ?? "") }
            if !others.isEmpty {
                b["other"] = others.map { "\($0.key.string ?? ""): \(ConfigTextEdit.flow($0.value))" }.joined(separator: ", ")
            }
            bindings.append(b)
        }
        object["gestures"] = gestures
        object["rules"] = rules
        object["bindings"] = bindings
        return json(200, object)
    }

    /// FNV-1a of the file's bytes: a save names the version it edited, and is refused when the
    /// file changed since.
    static func version(_ data: Data) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in data { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return String(hash, radix: 16)
    }

    // MARK: saving

    /// POST settings: `{"version", "binding": {"index"?, "gesture", "command"?, "keys"?},
    /// "gesture"?: {"id", "kind", "fingers"?, "direction"?, "region"?, "rule"?}}`.
    public func save(_ body: Data) -> Answer {
        guard let request = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any],
              let binding = request["binding"] as? [String: Any] else {
            return json(400, ["error": "the request is not a JSON object with a 'binding'"])
        }
        let path: String
        do { path = try configPath() } catch {
            if case .message(let why) = error { return json(409, ["error": why]) }
            return json(500, ["error": "\(error)"])
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            return json(409, ["error": "cannot read \(path)"])
        }
        guard request["version"] as? String == Self.version(data) else {
            return json(409, ["error": "\(path) changed since the page read it; nothing was written. Reload the settings and edit again."])
        }
        let old = String(decoding: data, as: UTF8.self)
        var text = old
        do throws(ConfigTextEdit.Failure) {
            if let g = request["gesture"] as? [String: Any] {
                text = try ConfigTextEdit.addGesture(text, ConfigTextEdit.Gesture(
                    id: g["id"] as? String ?? "", kind: g["kind"] as? String ?? "",
                    fingers: (g["fingers"] as? NSNumber)?.intValue,
                    direction: Self.nonEmpty(g["direction"]), region: Self.nonEmpty(g["region"]),
                    rule: Self.nonEmpty(g["rule"])))
            }
            let keys = (binding["keys"] as? [[Any]] ?? []).map { $0.compactMap { $0 as? String } }.filter { !$0.isEmpty }
            text = try ConfigTextEdit.setBinding(text, index: (binding["index"] as? NSNumber)?.intValue,
                                                 ConfigTextEdit.Binding(gesture: binding["gesture"] as? String ?? "",
                                                                        command: Self.nonEmpty(binding["command"]),
                                                                        keys: keys))
        } catch {
            return json(422, ["error": "\(path): \(error.description); nothing was written"])
        }
        do throws(ConfigErrors) {
            _ = try ConfigurationLoader.parse(text, file: path)
        } catch {
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            let quoted = Set(error.errors.map(\.line)).sorted().compactMap { n in
                n >= 1 && n <= lines.count ? "\(n): \(lines[n - 1])" : nil
            }
            return json(422, ["error": error.description, "lines": quoted,
                              "note": "as the file would read after this edit; nothing was written"])
        }
        do {
            try Self.replace(path, old: data, new: Data(text.utf8))
        } catch {
            return json(500, ["error": "cannot write \(path): \(error); the file is as it was"])
        }
        let reload = (try? ask("{\"request\":\"reload\"}")) ?? "{\"type\":\"error\",\"message\":\"the daemon did not answer the reload\"}"
        let reloaded = JSONValue(parsing: reload)?["type"]?.stringValue == "response"
        return json(200, ["saved": path, "backup": path + ".bak", "reloaded": reloaded,
                          "reload": JSONValue(parsing: reload)?["message"]?.stringValue ?? "ok"])
    }

    static func nonEmpty(_ value: Any?) -> String? {
        guard let s = value as? String, !s.isEmpty else { return nil }
        return s
    }

    /// The old bytes to FILE.bak, the new ones to a temporary file beside FILE (same mode),
    /// flushed, then renamed over FILE: a crash at any point leaves the old file or the new one.
    static func replace(_ path: String, old: Data, new: Data) throws {
        var info = stat()
        let mode = stat(path, &info) == 0 ? info.st_mode & 0o7777 : 0o644
        try write(path + ".bak", old, mode: mode)
        let temporary = path + ".view-\(getpid()).tmp"
        try write(temporary, new, mode: mode)
        guard rename(temporary, path) == 0 else {
            let why = String(cString: strerror(errno))
            unlink(temporary)
            throw Refusal.message("rename: \(why)")
        }
    }

    static func write(_ path: String, _ data: Data, mode: mode_t) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard fd >= 0 else { throw Refusal.message("\(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        let ok = data.withUnsafeBytes { raw -> Bool in
            var offset = 0
            while offset < raw.count {
                let n = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 { if errno == EINTR { continue }; return false }
                offset += n
            }
            return true
        }
        guard ok, fsync(fd) == 0 else { throw Refusal.message("\(path): \(String(cString: strerror(errno)))") }
    }

    func json(_ status: Int, _ object: [String: Any]) -> Answer {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return Answer(status: status, json: String(decoding: data, as: UTF8.self))
    }
}

extension SettingsStore.Refusal: CustomStringConvertible {
    var description: String { if case .message(let m) = self { m } else { "" } }
}
