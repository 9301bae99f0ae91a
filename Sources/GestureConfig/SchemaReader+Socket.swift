import GestureCore
import GestureYAML

/// `socket`: path, mode, owner, allowed users, queue and attach limits.
extension SchemaReader {
    // MARK: Socket

    static let socketKeys = ["path", "mode", "owner", "group", "allowed-uids", "queue-limit",
                             "max-regions-per-client", "max-gestures-per-client"]

    func socket(_ node: Node) -> SocketSettings {
        var settings = SocketSettings()
        guard let fields = reader.fields(node, in: "'socket'", allowed: Self.socketKeys) else { return settings }
        for key in ["path", "owner", "group"] {
            if let mark = fields[key]?.mark { socketPlaces["socket.\(key)"] = (mark.line, mark.column) }
        }
        if let n = fields["path"], let path = reader.string(n, "'path' in 'socket'") {
            if path.hasPrefix("/") {
                settings.path = path
            } else {
                reader.error(n, "'path' in 'socket' must be an absolute path, got '\(path)'")
            }
        }
        if let n = fields["mode"] {
            var text = ""
            if case .scalar(let s) = n { text = s.string.trimmingSpaces }
            if text.lowercased().hasPrefix("0o") { text = String(text.dropFirst(2)) }
            if let mode = UInt32(text, radix: 8), mode <= 0o777, !text.isEmpty {
                settings.mode = mode
            } else {
                reader.error(n, "expected an octal file mode like \"0660\" for 'mode' in 'socket', got \(YAMLReader.describe(n))")
            }
        }
        if let n = fields["owner"] { settings.owner = reader.string(n, "'owner' in 'socket'") }
        if let n = fields["group"] { settings.group = reader.string(n, "'group' in 'socket'") }
        if let n = fields["allowed-uids"], let items = reader.list(n, "'allowed-uids' in 'socket'", scalarAsList: true) {
            settings.allowedUIDs = items.compactMap {
                reader.integer($0, "'allowed-uids' in 'socket'", in: 0...Int(UInt32.max - 1)).map(UInt32.init)
            }
        }
        if let n = fields["queue-limit"] {
            settings.clientQueueLimit = reader.integer(n, "'queue-limit' in 'socket'", in: 1...1_000_000)
                ?? settings.clientQueueLimit
        }
        if let n = fields["max-regions-per-client"] {
            settings.clientRegionLimit = reader.integer(n, "'max-regions-per-client' in 'socket'", in: 0...4096)
                ?? settings.clientRegionLimit
        }
        if let n = fields["max-gestures-per-client"] {
            settings.clientGestureLimit = reader.integer(n, "'max-gestures-per-client' in 'socket'", in: 0...4096)
                ?? settings.clientGestureLimit
        }
        return settings
    }
}
