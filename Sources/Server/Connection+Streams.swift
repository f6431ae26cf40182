import RunusCore

/// Streamed answers (record 0555): a `ResultStream`'s parts are made on the pool one at a time,
/// each once the client has read the last ones below the high-water mark and the memory cap
/// has room; lines pushed meanwhile wait for the answer's last part (`push`).
extension Connection {
    /// A streamed answer's part is ready (on the loop thread): queue it; the next one is made
    /// once the client has read this far (`continueStream`).
    func receive(_ part: StreamedAnswer.Part, of streamed: StreamedAnswer, sequence: UInt64) {
        streamPartRunning = false
        guard !isClosed else { return }
        // The stream holds the first slot: this connection runs one request at a time (0532).
        guard sequence == slotBase, slots.first.map({ $0 == nil }) == true else { return close() }
        switch part {
        case .more(let bytes):
            output.append(contentsOf: bytes)
            stream = streamed
            streamLineOpen = true
        case .last(let bytes):
            output.append(contentsOf: bytes)
            stream = nil
            streamLineOpen = false
            for line in deferredPushes {
                output.append(contentsOf: line)
                waitingAnswerBytes -= line.count
            }
            deferredPushes = []
            slots.removeFirst()
            slotBase &+= 1
            releaseReadyAnswers()
        case .failed:
            // Part of the line went out; it cannot be finished or followed by another answer.
            configuration.log(ServerLog.line(.warn, "stream_cut", [
                "connection": .number(Double(id)), "request_id": .string(streamed.request.requestID)]))
            return close()
        }
        progress()
    }

    /// Starts the next part of the streamed answer when the client has read the last ones
    /// below the high-water mark and the memory cap has room; while the cap is full the loop's
    /// sweep calls this again (`retryStream`).
    func continueStream() {
        guard let streamed = stream, !streamPartRunning, !isClosed, pendingBytes < configuration.outputHighWaterBytes, !context.server.budget.isFull else { return }
        streamPartRunning = true
        stream = nil
        let loop = context.loop
        let partBytes = configuration.streamPartBytes
        let sequence = slotBase
        context.server.workers.async {
            let part = streamed.next(partBytes: partBytes)
            loop.execute { [self] in receive(part, of: streamed, sequence: sequence) }
        }
    }

    /// A stream waiting for room under the memory cap tries again (the loop's sweep).
    func retryStream() {
        guard stream != nil, !streamPartRunning else { return }
        progress()
    }
}
