import Canvas
import DrawProtocol
import Logging
import Rooms

extension GameServer {
    /// `report`: checks that the reporter could see what it reports, captures the evidence
    /// (chat lines around it, the drawing's stroke log) and files it for the moderators;
    /// answers `reported` with the report's id. A drawing named by id must still be on
    /// this node's shelf of recent drawings (the last 256 turns).
    func report(_ request: ReportRequest, from player: PlayerID, outbox: Outbox) -> ProtocolError? {
        let name = withLobby { $0.players[player]?.name } ?? ""
        let room = roomOf(player)
        var evidence = ReportEvidence(chat: [])
        if let room {
            switch room.evidence(for: request, from: player) {
            case .success(let found): evidence = found
            case .failure(let error): return error
            }
        } else if case .drawing(.some) = request.target {
            // A drawing link may be reported from outside a room: no chat to keep then.
        } else {
            return ProtocolError(.notInRoom, "join the room to report its chat or canvas")
        }
        var drawing: DrawingID?
        if case .drawing(let id?) = request.target {
            guard let shelved = drawings.shelved(id) else {
                return ProtocolError(.unknownTarget, "no recent drawing has that id")
            }
            drawing = id
            evidence.strokes = shelved.log
            evidence.reported = shelved.drawer
            evidence.reportedName = shelved.drawerName
        }
        if evidence.reported == player {
            return ProtocolError(.badMessage, "you cannot report yourself")
        }
        var chatText: String?
        if case .chat(_, let text) = request.target { chatText = text }
        var report = ReportDesk.Report(
            id: "", filedAtMs: GameDatabase.wallClockMs, reason: request.reason, reporter: player, reporterName: name,
            reported: evidence.reported, reportedName: evidence.reportedName, room: room?.code, drawing: drawing,
            chatText: chatText, chat: evidence.chat, strokes: evidence.strokes
        )
        // The canvas of a turn: its drawing once the turn has ended (at once when it has).
        if let turn = evidence.turn {
            report.turn = turn
            if case .some(let ended) = moderation.reporting(turn) {
                report.drawing = ended
                report.turnEnded = true
            }
        }
        return file(report, outbox: outbox)
    }

    /// Files a report (rate-limited per reporter) and answers `reported` once it is stored.
    func file(_ report: ReportDesk.Report, outbox: Outbox) -> ProtocolError? {
        switch fileReport(report) {
        case .failure(let error):
            return error
        case .success(let filed):
            guard let stored = filed.stored else {
                send(.reported(id: filed.id), to: outbox)
                return nil
            }
            Task {
                await stored.value
                self.send(.reported(id: filed.id), to: outbox)
            }
            return nil
        }
    }

    /// Files a report: the desk (budget, memory), then the store. `stored` ends once the
    /// store has it (or failed to take it: then it is kept in memory, and the log says so);
    /// nil without a store.
    func fileReport(_ report: ReportDesk.Report) -> Result<(id: String, stored: Task<Void, Never>?), ProtocolError> {
        switch moderation.withDesk({ $0.file(report, now: clock.now) }) {
        case .failure(let error):
            return .failure(error)
        case .success(let filed):
            logger.info("report filed", metadata: [
                "report": "\(filed.id)", "reason": "\(filed.reason.rawValue)", "room": "\(filed.room?.rawValue ?? "-")",
            ])
            // The turn may have ended meanwhile: `turnFinished` linked what the desk held
            // then, this links the rest (and the store's row, once written).
            let ended = filed.turn.flatMap { filed.turnEnded ? nil : moderation.finished($0) }
            if let turn = filed.turn, case .some(let drawing) = ended { moderation.withDesk { $0.link(turn, to: drawing) } }
            guard let archive = moderation.archive else { return .success((filed.id, nil)) }
            // Answered once stored, so every node's moderator can see it by then. A store
            // that fails keeps it in memory (listed from there) and says so in the log.
            let stored = Task { [logger, moderation] in
                do {
                    try await archive.storeReport(filed)
                    moderation.withDesk { $0.markStored(filed.id) }
                    if let turn = filed.turn, !filed.turnEnded, case .some(let drawing) = moderation.finished(turn) {
                        try await archive.linkReports(turn: turn, to: drawing)
                    }
                } catch {
                    logger.error("a report could not be stored; it is kept in memory", metadata: ["report": "\(filed.id)", "error": "\(error)"])
                }
            }
            return .success((filed.id, stored))
        }
    }

    /// A turn ended (its room calls this under its lock): reports made while it was drawn
    /// name its drawing now in memory; the store's rows are linked in the batch that writes
    /// the turn (and by `fileReport` for a row written after that batch).
    func turnFinished(_ record: TurnRecord) {
        moderation.turnFinished(TurnKey(record), drawing: record.drawing)
    }

    /// `gallery`: the player's setting, in memory at once and in the store just after, when
    /// it changed (the client repeats it after every `welcome`).
    func setListed(_ listed: Bool, for player: PlayerID) {
        guard moderation.setListed(listed, for: player), moderation.store != nil else { return }
        Task { [logger, moderation] in
            do {
                try await moderation.persistListed(for: player)
            } catch {
                logger.error("a gallery setting could not be stored; it is kept in memory", metadata: ["player": "\(player)", "error": "\(error)"])
            }
        }
    }

    /// `banned` for a player a moderator banned, on create, join and quick play.
    func banRefusal(_ player: PlayerID) -> ProtocolError? {
        guard moderation.isBanned(player, now: clock.now) else { return nil }
        return ProtocolError(.banned, "a moderator banned you from playing on this server for a while")
    }
}
