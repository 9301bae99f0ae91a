import GesturePosix
import Logging

/// Streaming through a pipe (docs/protocol.md, "Streaming through a pipe"): a client that subscribes
/// with `"stream":"pipe"` gets the read end of a new pipe with the reply, and from then on its
/// streamed lines (gesture, touch, explain, `dropped`, its attached gestures' lines) are written
/// to that pipe instead of its socket. A pipe write costs the daemon less than a socket send (no
/// socket buffer to allocate per line); requests and replies stay on the socket. The pipe has its
/// own bounded queue with the same rules as the socket's ("Slow clients"): full, lines are dropped
/// and counted, and `dropped` follows once the reader caught up.
extension ClientHub {
    /// Gives the client a new stream pipe, ending the one it had. Returns the read end, to be
    /// passed along with the subscribe reply (and closed here once sent).
    func openStreamPipe(for client: ClientConnection) -> Result<FileDescriptor, SystemCallError> {
        let ends: StreamPipeEnds
        switch system.makeStreamPipe() {
        case .success(let made): ends = made
        case .failure(let error): return .failure(SystemCallError("pipe2", errno: error))
        }
        // Always watched for the reader leaving (EPOLLERR needs no asking); for room only while
        // lines wait.
        do {
            try epoll.add(ends.write, events: [])
        } catch {
            system.close(ends.read)
            system.close(ends.write)
            return .failure(error)
        }
        closeStreamPipe(of: client)
        client.stream = StreamPipe(fd: ends.write)
        streamOwners[ends.write] = client
        return .success(ends.read)
    }

    /// Ends the client's stream pipe, if it has one: its reader sees the end of the stream once it
    /// read what was written. Lines still queued for it are discarded.
    func closeStreamPipe(of client: ClientConnection) {
        guard let stream = client.stream else { return }
        client.stream = nil
        streamOwners[stream.fd] = nil
        epoll.remove(stream.fd)
        system.close(stream.fd)
    }

    /// `enqueueStreamed` for a client with a stream pipe: with nothing waiting, one `write`;
    /// what the pipe does not take is queued and the pipe watched for room.
    @inline(__always)
    func enqueueStreamedToPipe(line: UnsafeRawBufferPointer, of client: ClientConnection) {
        guard let stream = client.stream else { return }
        guard stream.output.count < queueLimit else {
            stream.output.dropped += 1
            return
        }
        guard stream.output.isEmpty && stream.output.dropped == 0 && !stream.waitingForRoom else {
            stream.output.append(line: line)
            _ = flushStream(of: client)
            return
        }
        if MeasurementStage.current == .noSend { return }
        let fd = stream.fd
        switch stream.output.writeOrQueue(line, { line in
            if let kernel = epoll.kernel { kernel.write(fd, line) } else { system.write(fd, line) }
        }) {
        case .success(true):
            return
        case .success(false):
            watch(stream)
        case .failure(let error):
            streamBroke(client, error)
        }
    }

    /// Readiness of a stream pipe's write end: room to write, or the reader left.
    func handleStream(fd: FileDescriptor, events: EpollEvents) {
        guard let client = streamOwners[fd] else { return }
        if !events.isDisjoint(with: [.error, .hangUp]) {
            streamBroke(client, .brokenPipe)
            return
        }
        _ = flushStream(of: client)
    }

    /// Writes what the pipe takes of its queue, then `dropped` once the queue is empty; watches
    /// the pipe for room while bytes wait. False when the client was disconnected.
    func flushStream(of client: ClientConnection) -> Bool {
        guard let stream = client.stream else { return true }
        let fd = stream.fd
        if let failure = stream.output.drain({ bytes, _ in system.write(fd, bytes) }, passed: { _ in },
                                             droppedLines: { logDropped($0, of: client) }) {
            streamBroke(client, failure)
            return false
        }
        watch(stream)
        return true
    }

    /// Watches the pipe for room exactly while lines wait for it.
    private func watch(_ stream: StreamPipe) {
        let wanted = !stream.output.isEmpty
        guard wanted != stream.waitingForRoom else { return }
        stream.waitingForRoom = wanted
        epoll.modify(stream.fd, events: wanted ? .writable : [])
    }

    /// The pipe's reader left (or the pipe broke): the client can no longer get what it subscribed
    /// to, so it is disconnected, as a client whose socket broke.
    private func streamBroke(_ client: ClientConnection, _ error: Errno) {
        if error.isPeerGone {
            disconnect(client, reason: "closed its stream pipe")
        } else {
            disconnect(client, reason: "\(SystemCallError("write", errno: error, subject: "stream pipe"))", level: .warning)
        }
    }
}
