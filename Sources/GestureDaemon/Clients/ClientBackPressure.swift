import GesturePosix
import Logging
import GestureProtocol

/// Per-client reading and writing with back-pressure (docs/protocol.md, "Slow clients"): a
/// client's requests are read only while its reply queue has room and no reply is pending, so a
/// client that sends without reading is held by its own socket buffer, not by the daemon's memory,
/// and every reply is delivered.
extension ClientHub {
    /// Whether the client's next line may be answered now.
    func canAnswer(_ client: ClientConnection) -> Bool {
        !client.awaitingReply && client.output.count < queueLimit
    }

    /// Answers the client's buffered lines while its queue has room, reads more while that is
    /// allowed (at most `readsPerWakeUp` reads), writes what the socket takes, and repeats while
    /// writing made room for lines already read. Then closes a finished client or updates what
    /// epoll watches for it.
    func service(_ client: ClientConnection) {
        var reads = 0
        while true {
            while canAnswer(client), let line = client.input.nextLine() {
                answer(line, from: client)
                if clients[client.fd] == nil { return }
            }
            // Either the queue is full / a reply is pending, or every buffered line is answered.
            if canAnswer(client) && !client.inputEnded && reads < ClientHub.readsPerWakeUp {
                switch system.receive(client.fd, into: readBuffer) {
                case .success(0):
                    client.inputEnded = true
                case .success(let count):
                    client.input.append(UnsafeRawBufferPointer(rebasing: readBuffer[..<count]))
                    reads += 1
                    continue
                case .failure(.wouldBlock):
                    break
                case .failure(let error) where error.isPeerGone:
                    disconnect(client, reason: "connection reset while reading")
                    return
                case .failure(let error):
                    disconnect(client, reason: "\(SystemCallError("recv", errno: error))", level: .warning)
                    return
                }
            }
            guard flush(client) else { return }
            if canAnswer(client) && client.input.hasCompleteLine() { continue }
            break
        }
        settle(client)
    }

    /// Closes a client that finished sending and has everything answered and written, unless lines
    /// still come to it (it then stays until it hangs up: epoll reports that whatever it watches);
    /// otherwise watches it for what it needs: reading while it may send, writing while bytes wait.
    func settle(_ client: ClientConnection) {
        let heldBack = client.input.hasCompleteLine()
        if client.inputEnded && !client.awaitingReply && client.output.isEmpty && !heldBack && !client.receivesLines {
            disconnect(client, reason: "closed")
            return
        }
        var wanted: EpollEvents = []
        if canAnswer(client) && !client.inputEnded { wanted.insert(.readable) }
        // Lines already read wait only for room: be woken as soon as the socket is writable.
        if !client.output.isEmpty || (heldBack && canAnswer(client)) { wanted.insert(.writable) }
        if wanted != client.interest {
            client.interest = wanted
            epoll.modify(client.fd, events: wanted)
        }
    }

    /// Writes as much of the client's queue as its socket takes; never blocks. Once the queue is
    /// empty, a client that missed streamed lines is told how many. False when the client is gone.
    func flush(_ client: ClientConnection) -> Bool {
        let fd = client.fd
        let failure = client.output.drain({ bytes, descriptor in
            if let descriptor { system.send(fd, bytes, passing: descriptor) } else { system.send(fd, bytes) }
        }, passed: { system.close($0) },  // the client has its copy of the stream pipe's read end now
           droppedLines: { logDropped($0, of: client) })
        guard let failure else { return true }
        disconnect(client, afterFailedSend: failure)
        return false
    }

    func logDropped(_ count: Int, of client: ClientConnection) {
        logger.notice("client was too slow; lines dropped", metadata: ["client": "\(client.id)", "count": "\(count)"])
    }

    /// Queues a streamed line (gesture, touch, explain): dropped and counted when the client's
    /// queue is full. Written at once when the socket takes it. A client with a stream pipe gets
    /// it there instead (ClientStreamPipe.swift).
    func enqueueStreamed(_ line: String, to client: ClientConnection) {
        if client.stream != nil {
            var line = line + "\n"
            line.withUTF8 { enqueueStreamedToPipe(line: UnsafeRawBufferPointer($0), of: client) }
            return
        }
        guard client.output.count < queueLimit else {
            client.output.dropped += 1
            return
        }
        client.output.append(line)
        writeAppended(client)
    }

    /// `enqueueStreamed` for a line already encoded, its newline included. With nothing waiting
    /// for the client, the line goes straight to its socket (one `send`, no queue bookkeeping); only
    /// what the socket does not take is queued, and the client is watched for room.
    func enqueueStreamed(line: UnsafeRawBufferPointer, to client: ClientConnection) {
        if client.stream != nil {
            enqueueStreamedToPipe(line: line, of: client)
            return
        }
        guard client.output.count < queueLimit else {
            client.output.dropped += 1
            return
        }
        guard client.output.isEmpty && client.output.dropped == 0 && !client.interest.contains(.writable) else {
            client.output.append(line: line)
            writeAppended(client)
            return
        }
        // The queue stays empty when the socket takes it all, so nothing the client may do changes.
        if MeasurementStage.current == .noSend { return }
        let fd = client.fd
        switch client.output.writeOrQueue(line, { line in
            if let kernel = epoll.kernel { kernel.send(fd, line) } else { system.send(fd, line) }
        }) {
        case .success(true):
            return
        case .success(false):
            // Part or all of it waits: be woken when the socket has room.
            settle(client)
        case .failure(let error):
            disconnect(client, afterFailedSend: error)
        }
    }

    /// Queues a line that must not be dropped (a recording's events and its end line): the caller
    /// checks the queue's room first (`DeviceRecordings` ends the recording of a client that reads
    /// too slowly rather than let its queue grow).
    func enqueueWhole(_ line: String, to client: ClientConnection) {
        client.output.append(line)
        writeAppended(client)
    }

    /// Writes what the socket takes at once after a line was queued, unless a write is already pending.
    private func writeAppended(_ client: ClientConnection) {
        guard !client.interest.contains(.writable) else { return }
        guard flush(client) else { return }
        if canAnswer(client) && client.input.hasCompleteLine() {
            service(client)
        } else {
            settle(client)
        }
    }

    /// A send failed with something other than EAGAIN: the peer left, or the socket broke.
    func disconnect(_ client: ClientConnection, afterFailedSend error: Errno) {
        if error.isPeerGone {
            disconnect(client, reason: "vanished mid-write (\(error))")
        } else {
            disconnect(client, reason: "\(SystemCallError("send", errno: error))", level: .warning)
        }
    }
}
