import GestureCore

/// Routing of lines that involve regions or gestures attached by clients (`ClientNamespace`):
/// a client's own gestures reach it without any subscription (and no other client); its touch
/// streams reach it, plus subscribers whose `touches` name the responder (or "*"); every line is
/// rewritten into each receiver's view of the ids.
extension ClientHub {
    /// Publishes `output` if it involves a client's ids; false when it is an ordinary line.
    func publishOwned(_ output: EngineOutput) -> Bool {
        switch output {
        case .gesture(let g):
            guard let owner = ClientNamespace.split(g.gesture)?.client else { return false }
            if let client = client(id: owner) {
                enqueueStreamed(ClientNamespace.localized(output, for: owner).jsonLine, to: client)
            }
            return true
        case .explain(let e):
            guard let owner = ClientNamespace.split(e.gesture)?.client else { return false }
            if let client = client(id: owner), client.explain {
                enqueueStreamed(ClientNamespace.localized(output, for: owner).jsonLine, to: client)
            }
            return true
        case .touch(let t):
            let responderOwner = t.responder.flatMap { ClientNamespace.split($0)?.client }
            guard responderOwner != nil || t.region.map(ClientNamespace.isQualified) == true else { return false }
            for client in clients.values {
                let seen = ClientNamespace.localized(output, for: client.id)
                let owns = responderOwner == client.id
                guard owns || (client.subscribed && client.filter.matches(seen)) else { continue }
                enqueueStreamed(seen.jsonLine, to: client)
            }
            return true
        case .forwarding:
            return false
        }
    }

    /// The connected client with this number.
    func client(id: Int) -> ClientConnection? {
        clients.values.first { $0.id == id }
    }

    /// Sends one line to every client that asked for explain lines.
    func sendToExplaining(_ line: String) {
        for client in clients.values where client.explain { enqueueStreamed(line, to: client) }
    }

    /// Sends one line to a client by number (nothing when it is gone).
    func sendLine(_ line: String, toClient id: Int) {
        if let client = client(id: id) { enqueueStreamed(line, to: client) }
    }
}
