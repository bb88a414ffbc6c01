-- A PostgreSQL store as the version before the migration ledger left it: the schema its
-- migrate() made and the rows of StoreBeforeLedger (Tests/SurveyStorageTests), written through
-- that version's store and dumped with
--   pg_dump URL --schema=before_ledger --inserts --no-owner --no-privileges --no-comments
-- (the dump's SET lines and psql commands left out). The tests load it into a schema of their
-- own, in place of before_ledger, and migrate it forward.

CREATE SCHEMA before_ledger;

CREATE TABLE before_ledger.kiosk_revocations (
    device text NOT NULL,
    revoked_at double precision NOT NULL,
    until double precision NOT NULL
);

CREATE TABLE before_ledger.outbox (
    id uuid NOT NULL,
    run_id uuid NOT NULL,
    payload text NOT NULL,
    attempts integer NOT NULL,
    next_attempt_at double precision NOT NULL
);

CREATE TABLE before_ledger.resume_codes (
    code text NOT NULL,
    run uuid NOT NULL
);

CREATE TABLE before_ledger.runs (
    id uuid NOT NULL,
    survey text NOT NULL,
    session text NOT NULL,
    finished boolean NOT NULL,
    finish_reason text,
    version integer NOT NULL,
    started_at double precision NOT NULL,
    updated_at double precision NOT NULL,
    state text NOT NULL,
    saved_at double precision,
    resume_code text,
    resume_token text,
    resume_expires_at double precision,
    external_id text,
    return_url text,
    unanswered boolean DEFAULT false NOT NULL,
    survey_version text
);

CREATE TABLE before_ledger.survey_versions (
    survey text NOT NULL,
    version text NOT NULL,
    definition text NOT NULL,
    kept_at double precision NOT NULL
);

CREATE TABLE before_ledger.visits (
    run uuid NOT NULL,
    idx integer NOT NULL,
    data text NOT NULL
);

INSERT INTO before_ledger.kiosk_revocations VALUES ('device-7', 1800000050, 4000000000);

INSERT INTO before_ledger.outbox VALUES ('3a6e9693-5c9a-4f73-8838-c2fd50831d89', '6f1c2a9e-0000-4000-8000-000000000001', '{"event":"run.completed","run":"6f1c2a9e-0000-4000-8000-000000000001"}', 0, 1800000006);

INSERT INTO before_ledger.resume_codes VALUES ('KPQR7MXZ', '6f1c2a9e-0000-4000-8000-000000000002');

INSERT INTO before_ledger.runs VALUES ('6f1c2a9e-0000-4000-8000-000000000001', 'demo', 'session-completed', true, 'completed', 2, 1800000000, 1800000006, '{"taskIdentifier":"demo","taskRunUUID":"6F1C2A9E-0000-4000-8000-000000000001","startDate":1800000000,"endDate":1800000006,"finishReason":"completed","visits":[],"cursor":3}', NULL, NULL, NULL, NULL, NULL, NULL, false, '3f2a9c');
INSERT INTO before_ledger.runs VALUES ('6f1c2a9e-0000-4000-8000-000000000002', 'demo', 'session-saved', false, NULL, 1, 1800000100, 1800000103, '{"taskIdentifier":"demo","taskRunUUID":"6F1C2A9E-0000-4000-8000-000000000002","startDate":1800000100,"visits":[],"cursor":2}', 1800000103, 'KPQR7MXZ', 'c2F2ZWQtcnVuLXRva2VuLW9mLTE5Mi1iaXRz', 1802592000, NULL, NULL, false, '3f2a9c');
INSERT INTO before_ledger.runs VALUES ('6f1c2a9e-0000-4000-8000-000000000003', 'demo', 'session-api', false, NULL, 1, 1800000200, 1800000201, '{"taskIdentifier":"demo","taskRunUUID":"6F1C2A9E-0000-4000-8000-000000000003","startDate":1800000200,"visits":[],"cursor":1}', NULL, NULL, 'YXBpLXJ1bi10b2tlbi1vZi0xOTItYml0cy4u', 1800604800, 'P-0017', 'https://panel.example/return?study=7&pid=P-0017', false, '3f2a9c');
INSERT INTO before_ledger.runs VALUES ('6f1c2a9e-0000-4000-8000-000000000004', 'other', 'session-unanswered', false, NULL, 1, 1800000300, 1800000300, '{"taskIdentifier":"other","taskRunUUID":"6F1C2A9E-0000-4000-8000-000000000004","startDate":1800000300,"visits":[],"cursor":0}', NULL, NULL, NULL, NULL, NULL, NULL, true, NULL);

INSERT INTO before_ledger.survey_versions VALUES ('demo', '3f2a9c', '{"identifier":"demo","steps":[{"identifier":"intro","type":"instruction"}]}', 1795736440.0667577);

INSERT INTO before_ledger.visits VALUES ('6f1c2a9e-0000-4000-8000-000000000001', 0, '{"stepIdentifier":"intro","startDate":1800000000,"endDate":1800000001,"page":0,"results":[{"identifier":"intro","type":"choice","startDate":1800000001,"endDate":1800000001,"answer":{"choices":{"_0":["answer 0 — é ✓"]}}}],"isAnswered":true}');
INSERT INTO before_ledger.visits VALUES ('6f1c2a9e-0000-4000-8000-000000000001', 1, '{"stepIdentifier":"q1","startDate":1800000001,"endDate":1800000003,"page":0,"results":[{"identifier":"q1","type":"choice","startDate":1800000003,"endDate":1800000003,"answer":{"choices":{"_0":["answer 1 — é ✓"]}}}],"isAnswered":true}');
INSERT INTO before_ledger.visits VALUES ('6f1c2a9e-0000-4000-8000-000000000001', 2, '{"stepIdentifier":"q2","startDate":1800000003,"endDate":1800000006,"page":0,"results":[{"identifier":"q2","type":"choice","startDate":1800000006,"endDate":1800000006,"answer":{"choices":{"_0":["answer 2 — é ✓"]}}}],"isAnswered":true}');
INSERT INTO before_ledger.visits VALUES ('6f1c2a9e-0000-4000-8000-000000000001', 3, '{"stepIdentifier":"q3","startDate":1800000006,"page":0,"results":[],"isAnswered":false}');
INSERT INTO before_ledger.visits VALUES ('6f1c2a9e-0000-4000-8000-000000000002', 0, '{"stepIdentifier":"intro","startDate":1800000100,"endDate":1800000101,"page":0,"results":[{"identifier":"intro","type":"choice","startDate":1800000101,"endDate":1800000101,"answer":{"choices":{"_0":["answer 0 — é ✓"]}}}],"isAnswered":true}');
INSERT INTO before_ledger.visits VALUES ('6f1c2a9e-0000-4000-8000-000000000002', 1, '{"stepIdentifier":"q1","startDate":1800000101,"endDate":1800000103,"page":0,"results":[{"identifier":"q1","type":"choice","startDate":1800000103,"endDate":1800000103,"answer":{"choices":{"_0":["answer 1 — é ✓"]}}}],"isAnswered":true}');
INSERT INTO before_ledger.visits VALUES ('6f1c2a9e-0000-4000-8000-000000000002', 2, '{"stepIdentifier":"q2","startDate":1800000103,"page":0,"results":[],"isAnswered":false}');
INSERT INTO before_ledger.visits VALUES ('6f1c2a9e-0000-4000-8000-000000000003', 0, '{"stepIdentifier":"intro","startDate":1800000200,"endDate":1800000201,"page":0,"results":[{"identifier":"intro","type":"choice","startDate":1800000201,"endDate":1800000201,"answer":{"choices":{"_0":["answer 0 — é ✓"]}}}],"isAnswered":true}');
INSERT INTO before_ledger.visits VALUES ('6f1c2a9e-0000-4000-8000-000000000003', 1, '{"stepIdentifier":"q1","startDate":1800000201,"page":0,"results":[],"isAnswered":false}');
INSERT INTO before_ledger.visits VALUES ('6f1c2a9e-0000-4000-8000-000000000004', 0, '{"stepIdentifier":"intro","startDate":1800000300,"page":0,"results":[],"isAnswered":false}');

ALTER TABLE ONLY before_ledger.kiosk_revocations
    ADD CONSTRAINT kiosk_revocations_pkey PRIMARY KEY (device);

ALTER TABLE ONLY before_ledger.outbox
    ADD CONSTRAINT outbox_pkey PRIMARY KEY (run_id, id);

ALTER TABLE ONLY before_ledger.resume_codes
    ADD CONSTRAINT resume_codes_pkey PRIMARY KEY (code);

ALTER TABLE ONLY before_ledger.runs
    ADD CONSTRAINT runs_pkey PRIMARY KEY (id);

ALTER TABLE ONLY before_ledger.survey_versions
    ADD CONSTRAINT survey_versions_pkey PRIMARY KEY (survey, version);

ALTER TABLE ONLY before_ledger.visits
    ADD CONSTRAINT visits_pkey PRIMARY KEY (run, idx);

CREATE INDEX kiosk_revocations_by_time ON before_ledger.kiosk_revocations USING btree (revoked_at);

CREATE INDEX outbox_by_due ON before_ledger.outbox USING btree (next_attempt_at);

CREATE INDEX runs_by_resume_token ON before_ledger.runs USING btree (resume_token) WHERE (resume_token IS NOT NULL);

CREATE INDEX runs_by_session ON before_ledger.runs USING btree (session, survey, finished, updated_at);

CREATE INDEX runs_by_survey ON before_ledger.runs USING btree (survey, updated_at);

CREATE INDEX runs_by_survey_id ON before_ledger.runs USING btree (survey, id);

CREATE INDEX runs_unanswered ON before_ledger.runs USING btree (updated_at) WHERE unanswered;

ALTER TABLE ONLY before_ledger.visits
    ADD CONSTRAINT visits_run_fkey FOREIGN KEY (run) REFERENCES before_ledger.runs(id) ON DELETE CASCADE;
