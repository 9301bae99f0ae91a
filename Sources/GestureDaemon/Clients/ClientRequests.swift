import GestureCore
import Logging
import GestureProtocol

/// Request handling (docs/protocol.md, "Requests"): every line gets exactly one reply, in order.
/// subscribe, unsubscribe and explain are the hub's own; the other requests (status, devices,
/// hit-test, reload, record, record-stop, inject, attach, update, detach, set-surface, desktop, scene) go to the owner as `ClientHubEvent.request` and are answered with `reply(to:with:)`.
extension ClientHub {
    /// Requests the owner answers.
    static let ownerRequests: Set<String> = ["status", "devices", "hit-test", "reload", "record", "record-stop",
                                             "attach", "update", "detach", "set-surface", "desktop", "inject", "scene"]

    /// Handles one line from the reader.
    func answer(_ line: RequestLineReader.Line, from client: ClientConnection) {
        switch line {
        case .tooLong:
            logger.notice("request line too long; refused", metadata: ["client": "\(client.id)"])
            client.output.append(ProtocolLine.error(
                "request line longer than \(ClientHub.maximumLineLength) bytes; the rest of it is ignored"))
        case .request(let bytes):
            // Blank lines (keep-alives, a stray CR) get no reply.
            if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return }
            guard let text = String(validating: bytes, as: UTF8.self) else {
                client.output.append(ProtocolLine.error("malformed request: not valid UTF-8"))
                return
            }
            switch ClientRequest.parse(text) {
            case .success(let request):
                answer(request, from: client)
            case .failure(let error):
                logger.debug("bad request", metadata: ["client": "\(client.id)", "error": "\(error.message)"])
                client.output.append(ProtocolLine.error(error.message))
            }
        }
    }

    private func answer(_ request: ClientRequest, from client: ClientConnection) {
        func reply(_ line: String) { client.output.append(ProtocolLine.tagged(line, id: request.id)) }
        switch request.request {
        case "subscribe":
            let filter: SubscriptionFilter
            do {
                filter = try SubscriptionFilter(request)
            } catch {
                reply(ProtocolLine.error(error.message, request: "subscribe"))
                return
            }
            if let unknown = unknownFilterName(request) {
                reply(ProtocolLine.error(unknown + "; subscription unchanged", request: "subscribe"))
                return
            }
            switch request.stream ?? "socket" {
            case "socket":
                closeStreamPipe(of: client)
                reply(ProtocolLine.response("subscribe"))
            case "pipe":
                switch openStreamPipe(for: client) {
                case .success(let readEnd):
                    let line = ProtocolLine.tagged(ProtocolLine.response("subscribe", [("stream", "\"pipe\"")]), id: request.id)
                    if let unsent = client.output.append(line, passing: readEnd) { system.close(unsent) }
                case .failure(let error):
                    logger.warning("no stream pipe for a client", metadata: ["client": "\(client.id)", "error": "\(error)"])
                    reply(ProtocolLine.error("could not make the stream pipe (\(error)); subscription unchanged", request: "subscribe"))
                    return
                }
            case let other:
                reply(ProtocolLine.error("\"stream\" must be \"socket\" or \"pipe\", got \(ProtocolError.echo(other))", request: "subscribe"))
                return
            }
            client.filter = filter
            setSubscribed(client, true)
            post(.subscribed(client.info))
        case "unsubscribe":
            closeStreamPipe(of: client)
            setSubscribed(client, false)
            reply(ProtocolLine.response("unsubscribe"))
            post(.unsubscribed(client.info))
        case "explain":
            client.explain = request.on ?? true
            reply(ProtocolLine.response("explain", [("on", client.explain ? "true" : "false")]))
            updateExplainWanted()
        case let name where ClientHub.ownerRequests.contains(name):
            client.awaitingReply = true
            post(.request(PendingRequest(client: client.info, fd: client.fd, request: request)))
        default:
            reply(ProtocolLine.error(
                "unknown request \(ProtocolError.echo(request.request)) (expected subscribe, unsubscribe, status, devices, hit-test, reload, explain, record, record-stop, attach, update, detach, set-surface or desktop)",
                request: request.request))
        }
    }

    /// A `gestures` or `regions` filter naming nothing the config defines would wait in silence:
    /// the first such name, with the nearest defined one. Ids qualified by a client's number
    /// (`ClientNamespace`) are left alone.
    func unknownFilterName(_ request: ClientRequest) -> String? {
        guard checksFilterNames else { return nil }
        let gestures = recognizerKinds.keys.sorted()
        for id in request.gestures ?? [] where recognizerKinds[id] == nil && !ClientNamespace.isQualified(id) {
            return NameSuggestion.unknown("gesture", id, among: gestures)
                + " (an app's own gestures reach that app without a subscription)"
        }
        // Desktop regions (`window:ID`, `output:NAME`) come and go with the bridge's snapshots.
        for id in request.regions ?? [] where !regionIDs.contains(id) && !ClientNamespace.isQualified(id)
            && !id.hasPrefix("window:") && !id.hasPrefix("output:") {
            return NameSuggestion.unknown("region", id, among: regionIDs)
        }
        return nil
    }

    /// The owner's answer to a pending request (a response or error line). Ignored when that
    /// client has left meanwhile.
    func reply(to pending: PendingRequest, with line: String) {
        guard let client = clients[pending.fd], client.id == pending.client.id, client.awaitingReply else { return }
        client.awaitingReply = false
        client.output.append(ProtocolLine.tagged(line, id: pending.request.id))
        service(client)
    }

    /// Tells the owner when the set of clients wanting explain lines goes from empty to not, or back.
    func updateExplainWanted() {
        let wanted = clients.values.contains { $0.explain }
        if wanted != explainWanted {
            explainWanted = wanted
            post(.explainWanted(wanted))
        }
    }
}
