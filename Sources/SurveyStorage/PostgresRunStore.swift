import Foundation
import Logging
import PostgresNIO
import SurveyCore

/// The store for several replicas: every `survey serve` process on one PostgreSQL keeps
/// nothing a request needs in memory, so any replica serves any participant. A write
/// returns once PostgreSQL has committed it (`synchronous_commit` on, its default).
public final class PostgresRunStore: RunStore {
    /// The connection pool. It is a swift-service-lifecycle `Service` and serves queries only
    /// while its `run()` runs: the application runs it in its service group, for as long as
    /// the server runs, and `survey migrate` for as long as the migration takes.
    public let client: PostgresClient
    let logger = Logger(label: "survey.postgres")
    /// The schema the tables live in, when the URL names one (`?schema=name`); else `public`.
    let schema: String?
    /// With `?partitions=N`, the run tables are made hash-partitioned by run id in N parts:
    /// PostgreSQL then holds the schema to the rule a distributed database (Citus) imposes,
    /// that every key and unique constraint includes the run id.
    let partitions: Int?

    /// A store for a `postgres://user:password@host:port/database[?schema=name&sslmode=require]`
    /// URL. Nothing connects until `client` runs; `migrate()` then creates or updates the schema.
    public init(url: String) throws {
        guard let components = URLComponents(string: url), ["postgres", "postgresql"].contains(components.scheme ?? ""),
              let host = components.host, let user = components.user else {
            throw RunStoreError.unavailable("expected a URL such as postgres://user:password@127.0.0.1:5432/survey")
        }
        let database = components.path.split(separator: "/").first.map(String.init)
        let tls: PostgresClient.Configuration.TLS = components.queryItems?.contains { $0.name == "sslmode" && $0.value == "require" } == true
            ? .require(.makeClientConfiguration()) : .disable
        var configuration = PostgresClient.Configuration(host: host, port: components.port ?? 5432, username: user,
                                                         password: components.password, database: database, tls: tls)
        configuration.options.maximumConnections = 16
        let schema = components.queryItems?.first { $0.name == "schema" }?.value
        if let schema {
            guard !schema.isEmpty, schema.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "_") }) else {
                throw RunStoreError.unavailable("the schema name must hold only a-z, 0-9 and _")
            }
            configuration.options.additionalStartupParameters = [("search_path", schema)]
        }
        self.schema = schema
        if let text = components.queryItems?.first(where: { $0.name == "partitions" })?.value {
            guard let count = Int(text), (2...64).contains(count) else {
                throw RunStoreError.unavailable("partitions must be a number from 2 to 64")
            }
            partitions = count
        } else {
            partitions = nil
        }
        client = PostgresClient(configuration: configuration)
    }

    /// A run's columns and its visits in order, read in the same query.
    private static let columns = """
        id, survey, session, version, updated_at, state, saved_at, resume_code, resume_token, resume_expires_at, external_id, return_url,
        survey_version, fhir_context, ARRAY(SELECT data FROM visits WHERE visits.run = runs.id ORDER BY idx) AS visits,
        audit_seq, audit_head
        """

    /// The run without its visits, which live in their own rows.
    private static func header(_ run: TaskRun) throws -> String {
        String(decoding: try RunJSON.header(run), as: UTF8.self)
    }

    /// The visits from `from` on, encoded.
    private static func encodeVisits(_ visits: VisitList, from: Int) throws -> [String] {
        from < visits.count ? try visits[from...].map { String(decoding: try RunJSON.visit($0), as: UTF8.self) } : []
    }

    private func decode(_ rows: PostgresRowSequence) async throws -> [RunRecord] {
        var records: [RunRecord] = []
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        for try await (id, survey, session, version, updatedAt, state, savedAt, code, token, expires, external, returnURL, surveyVersion, context, visits,
                       auditSeq, auditHead)
            in rows.decode((UUID, String, String, Int, Double, String, Double?, String?, String?, Double?, String?, String?, String?, String?,
                            [String], Int, String).self) {
            var resume: ResumeTicket?
            if let token, let expires { resume = ResumeTicket(code: code, token: token, expiresAt: Date(timeIntervalSince1970: expires)) }
            var run = try decoder.decode(TaskRun.self, from: Data(state.utf8))
            run.visits = VisitList(try visits.map { try decoder.decode(StepVisit.self, from: Data($0.utf8)) })
            _ = id
            var record = RunRecord(run: run, surveyIdentifier: survey, sessionID: session, version: version,
                                   updatedAt: Date(timeIntervalSince1970: updatedAt), savedAt: savedAt.map(Date.init(timeIntervalSince1970:)),
                                   resume: resume, externalID: external, returnURL: returnURL, surveyVersion: surveyVersion,
                                   fhirContext: RunJSON.fhirContext(context))
            record.storedVisits = StoredState(run.visits, resumeCode: code)
            record.audit = AuditTrail(head: AuditHead(seq: auditSeq, hash: auditHead))
            records.append(record)
        }
        return records
    }

    public func insert(_ record: RunRecord) async throws -> RunRecord {
        let state = try Self.header(record.run)
        let visits = try Self.encodeVisits(record.run.visits, from: 0)
        let positions = Array(visits.indices)
        let (entries, head) = AuditEntry.seal(record.audit.pending, chain: AuditEntry.chain(of: record.id), after: .genesis, chainRun: record.id)
        let audit = AuditRows(entries)
        do {
            // The header, its visits and its audit entries in one statement: one round trip, all or nothing.
            try await client.query("""
                WITH inserted AS (
                    INSERT INTO runs (id, survey, session, finished, finish_reason, version, started_at, updated_at, state, saved_at,
                                      resume_code, resume_token, resume_expires_at, external_id, return_url, unanswered, survey_version, fhir_context,
                                      audit_seq, audit_head)
                    VALUES (\(record.id), \(record.surveyIdentifier), \(record.sessionID), \(record.run.isFinished),
                            \(record.run.finishReason?.rawValue), 1, \(record.run.startDate.timeIntervalSince1970),
                            \(record.updatedAt.timeIntervalSince1970), \(state), \(record.savedAt?.timeIntervalSince1970),
                            \(record.resume?.code), \(record.resume?.token), \(record.resume?.expiresAt.timeIntervalSince1970),
                            \(record.externalID), \(record.returnURL), \(record.isUnanswered), \(record.surveyVersion),
                            \(RunJSON.text(record.fhirContext)), \(head.seq), \(head.hash))
                    RETURNING id),
                coded AS (INSERT INTO resume_codes (code, run) SELECT \(record.resume?.code)::TEXT, id FROM inserted
                          WHERE \(record.resume?.code)::TEXT IS NOT NULL),
                audited AS (
                    INSERT INTO audit_log (chain, seq, at_ms, actor, action, survey, run, detail, content_hash, previous_hash, hash)
                    SELECT entry.* FROM inserted, unnest(\(audit.chains)::TEXT[], \(audit.seqs)::INTEGER[], \(audit.times)::BIGINT[],
                        \(audit.actors)::TEXT[], \(audit.actions)::TEXT[], \(audit.surveys)::TEXT[], \(audit.runs)::TEXT[],
                        \(audit.details)::TEXT[], \(audit.contentHashes)::TEXT[], \(audit.previousHashes)::TEXT[], \(audit.hashes)::TEXT[]) AS entry
                    RETURNING id, chain, seq),
                contents AS (
                    INSERT INTO audit_content (id, chain, salt, body)
                    SELECT audited.id, audited.chain, content.salt, content.body FROM audited
                    JOIN unnest(\(audit.contentChains)::TEXT[], \(audit.contentSeqs)::INTEGER[], \(audit.salts)::TEXT[], \(audit.bodies)::TEXT[])
                        AS content(chain, seq, salt, body) ON content.chain = audited.chain AND content.seq = audited.seq)
                INSERT INTO visits (run, idx, data)
                SELECT inserted.id, visit.idx, visit.data FROM inserted, unnest(\(positions)::INTEGER[], \(visits)::TEXT[]) AS visit(idx, data)
                """, logger: logger)
        } catch let error as PSQLError where error.serverInfo?[.sqlState] == "23505" {
            throw RunStoreError.duplicate
        }
        var stored = record
        stored.version = 1
        stored.storedVisits = StoredState(record.run.visits, resumeCode: record.resume?.code)
        stored.audit = AuditTrail(head: head)
        return stored
    }

    public func update(_ record: RunRecord) async throws -> RunRecord {
        // A new resume code may meet another run's: then nothing of the update may stay.
        if record.storedVisits.visits == nil || record.storedVisits.resumeCode != record.resume?.code {
            do {
                return try await client.withTransaction(logger: logger) { connection in try await self.update(record, on: connection) }
            } catch let error as PostgresTransactionError {
                if let inner = error.closureError as? RunStoreError { throw inner }
                throw error
            }
        }
        return try await client.withConnection { connection in try await self.update(record, on: connection) }
    }

    public func update(_ record: RunRecord, enqueuing payload: String) async throws -> RunRecord {
        do {
            return try await client.withTransaction(logger: logger) { connection in
                let stored = try await self.update(record, on: connection)
                try await connection.query("""
                    INSERT INTO outbox (id, run_id, payload, attempts, next_attempt_at)
                    VALUES (\(UUID()), \(record.id), \(payload), 0, \(record.updatedAt.timeIntervalSince1970))
                    """, logger: self.logger)
                return stored
            }
        } catch let error as PostgresTransactionError {
            // A conflict inside the transaction is still a conflict to the caller.
            if let inner = error.closureError as? RunStoreError { throw inner }
            throw error
        }
    }

    private func update(_ record: RunRecord, on connection: PostgresConnection) async throws -> RunRecord {
        let state = try Self.header(record.run)
        let visits = record.run.visits
        // Only the visits from the first difference with what the store holds are written; all
        // of them when that is not known (a record made elsewhere than by this store).
        let known = record.storedVisits.visits != nil
        let from = record.storedVisits.visits.map { visits.firstDifference(from: $0) } ?? 0
        let encoded = try Self.encodeVisits(visits, from: from)
        let positions = Array(from..<(from + encoded.count))
        // The resume code's row follows the run's code: the old one goes, the new one comes
        // (by the code the store held, so the statement touches this run's rows only).
        let code = record.resume?.code
        let oldCode = known ? record.storedVisits.resumeCode : nil
        let codeChanged = !known || oldCode != code
        // The chain follows the head read with the record at this version: a stale one fails the version check.
        let (entries, head) = AuditEntry.seal(record.audit.pending, chain: AuditEntry.chain(of: record.id), after: record.audit.head, chainRun: record.id)
        let audit = AuditRows(entries)
        let rows = try await connection.query("""
            WITH updated AS (
                UPDATE runs SET finished = \(record.run.isFinished), finish_reason = \(record.run.finishReason?.rawValue),
                    version = version + 1, updated_at = \(record.updatedAt.timeIntervalSince1970), state = \(state),
                    session = \(record.sessionID), saved_at = \(record.savedAt?.timeIntervalSince1970), resume_code = \(record.resume?.code),
                    resume_token = \(record.resume?.token), resume_expires_at = \(record.resume?.expiresAt.timeIntervalSince1970),
                    unanswered = \(record.isUnanswered), audit_seq = \(head.seq), audit_head = \(head.hash)
                WHERE id = \(record.id) AND version = \(record.version)
                RETURNING id),
            audited AS (
                INSERT INTO audit_log (chain, seq, at_ms, actor, action, survey, run, detail, content_hash, previous_hash, hash)
                SELECT entry.* FROM updated, unnest(\(audit.chains)::TEXT[], \(audit.seqs)::INTEGER[], \(audit.times)::BIGINT[],
                    \(audit.actors)::TEXT[], \(audit.actions)::TEXT[], \(audit.surveys)::TEXT[], \(audit.runs)::TEXT[],
                    \(audit.details)::TEXT[], \(audit.contentHashes)::TEXT[], \(audit.previousHashes)::TEXT[], \(audit.hashes)::TEXT[]) AS entry
                RETURNING id, chain, seq),
            contents AS (
                INSERT INTO audit_content (id, chain, salt, body)
                SELECT audited.id, audited.chain, content.salt, content.body FROM audited
                JOIN unnest(\(audit.contentChains)::TEXT[], \(audit.contentSeqs)::INTEGER[], \(audit.salts)::TEXT[], \(audit.bodies)::TEXT[])
                    AS content(chain, seq, salt, body) ON content.chain = audited.chain AND content.seq = audited.seq),
            removed AS (DELETE FROM visits WHERE run IN (SELECT id FROM updated) AND idx >= \(visits.count)),
            written AS (
                INSERT INTO visits (run, idx, data)
                SELECT updated.id, visit.idx, visit.data FROM updated, unnest(\(positions)::INTEGER[], \(encoded)::TEXT[]) AS visit(idx, data)
                ON CONFLICT (run, idx) DO UPDATE SET data = EXCLUDED.data),
            uncoded AS (
                DELETE FROM resume_codes WHERE \(codeChanged) AND run IN (SELECT id FROM updated)
                    AND (code = \(oldCode)::TEXT OR NOT \(known)) AND code IS DISTINCT FROM \(code)::TEXT),
            coded AS (
                INSERT INTO resume_codes (code, run) SELECT \(code)::TEXT, id FROM updated WHERE \(codeChanged) AND \(code)::TEXT IS NOT NULL
                ON CONFLICT (code) DO UPDATE SET run = EXCLUDED.run WHERE resume_codes.run = EXCLUDED.run
                RETURNING 1)
            SELECT (SELECT count(*) FROM updated)::INTEGER, (SELECT count(*) FROM coded)::INTEGER
            """, logger: logger)
        var changed = 0
        var coded = 0
        for try await (updated, written) in rows.decode((Int, Int).self) {
            changed = updated
            coded = written
        }
        guard changed == 1 else { throw RunStoreError.conflict }
        // Another run holds the code: the caller's transaction is rolled back by the throw.
        if codeChanged, code != nil, coded == 0 { throw RunStoreError.duplicate }
        var stored = record
        stored.version += 1
        stored.storedVisits = StoredState(visits, resumeCode: code)
        stored.audit = AuditTrail(head: head)
        return stored
    }

    public func claimDueEvents(now: Date, lease: TimeInterval, limit: Int) async throws -> [OutboxEvent] {
        let rows = try await client.query("""
            UPDATE outbox SET next_attempt_at = \(now.addingTimeInterval(lease).timeIntervalSince1970) WHERE id IN
                (SELECT id FROM outbox WHERE next_attempt_at <= \(now.timeIntervalSince1970) ORDER BY next_attempt_at
                 LIMIT \(limit) FOR UPDATE SKIP LOCKED)
            RETURNING id, run_id, payload, attempts
            """, logger: logger)
        var events: [OutboxEvent] = []
        for try await (id, run, payload, attempts) in rows.decode((UUID, UUID, String, Int).self) {
            events.append(OutboxEvent(id: id, runID: run, payload: payload, attempts: attempts, nextAttemptAt: now))
        }
        return events
    }

    public func eventDelivered(_ event: OutboxEvent) async throws {
        try await client.query("DELETE FROM outbox WHERE run_id = \(event.runID) AND id = \(event.id)", logger: logger)
    }

    public func eventFailed(_ event: OutboxEvent, attempts: Int, nextAttemptAt: Date) async throws {
        try await client.query("""
            UPDATE outbox SET attempts = \(attempts), next_attempt_at = \(nextAttemptAt.timeIntervalSince1970)
            WHERE run_id = \(event.runID) AND id = \(event.id)
            """, logger: logger)
    }

    private func one(_ query: PostgresQuery) async throws -> RunRecord? {
        try await decode(try await client.query(query, logger: logger)).first
    }

    public func record(id: UUID) async throws -> RunRecord? {
        try await one("SELECT \(unescaped: Self.columns) FROM runs WHERE id = \(id)")
    }

    public func activeRecord(session: String, survey: String) async throws -> RunRecord? {
        try await one("""
            SELECT \(unescaped: Self.columns) FROM runs WHERE session = \(session) AND survey = \(survey) AND NOT finished
            ORDER BY updated_at DESC LIMIT 1
            """)
    }

    public func lastFinishedRecord(session: String, survey: String) async throws -> RunRecord? {
        try await one("""
            SELECT \(unescaped: Self.columns) FROM runs WHERE session = \(session) AND survey = \(survey) AND finished
            ORDER BY updated_at DESC LIMIT 1
            """)
    }

    public func delete(id: UUID, erasure: AuditEvent) async throws {
        var bindings = PostgresBindings()
        bindings.append(id)
        _ = try await deleteRuns(where: "id = $1", bindings, erasure: erasure)
    }

    public func record(resumeCode: String) async throws -> RunRecord? {
        try await one("""
            SELECT \(unescaped: Self.columns) FROM runs
            WHERE id = (SELECT run FROM resume_codes WHERE code = \(resumeCode)) AND resume_code = \(resumeCode)
            """)
    }

    public func record(resumeToken: String) async throws -> RunRecord? {
        try await one("SELECT \(unescaped: Self.columns) FROM runs WHERE resume_token = \(resumeToken)")
    }

    public func records(matching query: RunQuery) async throws -> [RunRecord] {
        var bindings = PostgresBindings()
        var conditions: [String] = []
        if let survey = query.survey {
            bindings.append(survey)
            conditions.append("survey = $\(bindings.count)")
        }
        if let status = query.status {
            bindings.append(status)
            conditions.append("(CASE WHEN finish_reason IS NOT NULL THEN finish_reason WHEN saved_at IS NULL THEN 'inProgress' ELSE 'saved' END) = $\(bindings.count)")
        }
        if let since = query.updatedSince {
            bindings.append(since.timeIntervalSince1970)
            conditions.append("updated_at >= $\(bindings.count)")
        }
        if let after = query.afterID {
            // UUIDs sort as their lower-case text does; an empty `after` is the start.
            bindings.append(UUID(uuidString: after) ?? UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))
            conditions.append("id > $\(bindings.count)")
        }
        bindings.append(query.limit)
        let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        let order = query.afterID == nil ? "updated_at DESC" : "id"
        let sql = "SELECT \(Self.columns) FROM runs \(filter) ORDER BY \(order) LIMIT $\(bindings.count)"
        return try await decode(try await client.query(PostgresQuery(unsafeSQL: sql, binds: bindings), logger: logger))
    }

    public func records(ids: [UUID]) async throws -> [RunRecord] {
        guard !ids.isEmpty else { return [] }
        return try await decode(try await client.query("SELECT \(unescaped: Self.columns) FROM runs WHERE id = ANY(\(ids))", logger: logger))
    }

    public func keepSurveyVersion(survey: String, version: String, definition: String) async throws {
        try await client.query("""
            INSERT INTO survey_versions (survey, version, definition, kept_at)
            VALUES (\(survey), \(version), \(definition), \(Date().timeIntervalSince1970)) ON CONFLICT DO NOTHING
            """, logger: logger)
    }

    public func revokeKioskDevice(_ revocation: KioskRevocation) async throws {
        try await client.withTransaction(logger: logger) { connection in
            try await connection.query("DELETE FROM kiosk_revocations WHERE until < \(revocation.revokedAt.timeIntervalSince1970)", logger: logger)
            try await connection.query("""
                INSERT INTO kiosk_revocations (device, revoked_at, until)
                VALUES (\(revocation.device), \(revocation.revokedAt.timeIntervalSince1970), \(revocation.until.timeIntervalSince1970))
                ON CONFLICT DO NOTHING
                """, logger: logger)
        }
    }

    public func kioskRevocations(since: Date, now: Date) async throws -> [KioskRevocation] {
        let rows = try await client.query("""
            SELECT device, revoked_at, until FROM kiosk_revocations
            WHERE revoked_at >= \(since.timeIntervalSince1970) AND until > \(now.timeIntervalSince1970) ORDER BY revoked_at
            """, logger: logger)
        var revocations: [KioskRevocation] = []
        for try await (device, revokedAt, until) in rows.decode((String, Double, Double).self) {
            revocations.append(KioskRevocation(device: device, revokedAt: Date(timeIntervalSince1970: revokedAt),
                                               until: Date(timeIntervalSince1970: until)))
        }
        return revocations
    }

    public func surveyVersions(survey: String) async throws -> [SurveyVersionRecord] {
        let rows = try await client.query(
            "SELECT version, definition, kept_at FROM survey_versions WHERE survey = \(survey) ORDER BY kept_at, version", logger: logger)
        var versions: [SurveyVersionRecord] = []
        for try await (version, definition, keptAt) in rows.decode((String, String, Double).self) {
            versions.append(SurveyVersionRecord(version: version, definition: definition, keptAt: Date(timeIntervalSince1970: keptAt)))
        }
        return versions
    }

    public func deleteFinished(before date: Date, erasure: AuditEvent) async throws -> Int {
        var bindings = PostgresBindings()
        bindings.append(date.timeIntervalSince1970)
        return try await deleteRuns(where: "finished AND updated_at < $1", bindings, erasure: erasure)
    }

    public func deleteUnanswered(before date: Date, erasure: AuditEvent) async throws -> Int {
        var bindings = PostgresBindings()
        bindings.append(date.timeIntervalSince1970)
        return try await deleteRuns(where: "unanswered AND updated_at < $1", bindings, erasure: erasure)
    }
}

extension PostgresRunStore {
    public func insertDocument(_ document: RunDocument) async throws {
        do {
            try await client.query("""
                INSERT INTO documents (run, kind, bytes, digest, created_at)
                VALUES (\(document.runID), \(document.kind.rawValue), \(ByteBuffer(bytes: document.bytes)), \(document.sha256),
                        \(document.createdAt.timeIntervalSince1970))
                """, logger: logger)
        } catch let error as PSQLError where error.serverInfo?[.sqlState] == "23505" {
            throw RunStoreError.duplicate
        } catch let error as PSQLError where error.serverInfo?[.sqlState] == "23503" {
            // The run is gone.
            throw RunStoreError.conflict
        }
    }

    public func document(run: UUID, kind: RunDocument.Kind) async throws -> RunDocument? {
        let rows = try await client.query("""
            SELECT bytes, digest, created_at FROM documents WHERE run = \(run) AND kind = \(kind.rawValue)
            """, logger: logger)
        for try await (bytes, sha256, createdAt) in rows.decode((ByteBuffer, String, Double).self) {
            return RunDocument(runID: run, kind: kind, bytes: Array(bytes.readableBytesView), sha256: sha256,
                               createdAt: Date(timeIntervalSince1970: createdAt))
        }
        return nil
    }
}
