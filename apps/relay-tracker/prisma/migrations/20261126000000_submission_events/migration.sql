-- One row per history entry of a submission, with the status answer's values as they were
-- at that transition (the submission row holds only the current ones): what the status
-- stream replays (`id` = seq) and, later, what webhooks deliver. Written by a trigger in
-- the same statement, hence the same transaction, as the change of the history it records:
-- an event exists exactly when its transition was committed, whichever path made it (a
-- submit, an adoption, a step of settlement).
CREATE TABLE "relay_tracker"."submission_events" (
    "submission_id" UUID NOT NULL,
    "seq" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL,
    "org_id" TEXT,
    "state" JSONB NOT NULL,

    CONSTRAINT "submission_events_pkey" PRIMARY KEY ("submission_id", "seq"),
    CONSTRAINT "submission_events_submission_id_fkey" FOREIGN KEY ("submission_id")
        REFERENCES "relay_tracker"."submissions"("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- The answer's values of a row, its status taken from the history entry (a step that moves
-- a swap through several statuses at once records each).
CREATE FUNCTION "relay_tracker"."submission_state"(s "relay_tracker"."submissions", entry_status TEXT) RETURNS JSONB
LANGUAGE SQL STABLE AS $$
  SELECT jsonb_strip_nulls(jsonb_build_object(
    'status', entry_status,
    'userMessage', s.user_message,
    'failedAtStep', s.failed_at_step,
    'processingAttempts', s.processing_attempts,
    'hubTxHash', s.hub_tx_hash,
    'fillTxHash', s.fill_tx_hash,
    'deliveryTxHash', s.delivery_tx_hash,
    'intentCancelled', s.intent_cancelled,
    'intentHash', s.intent_hash,
    'updatedAt', to_char(s.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')))
$$;

-- New history entries (the history only ever grows) become events, numbered by their place in it.
CREATE FUNCTION "relay_tracker"."record_submission_events"() RETURNS TRIGGER
LANGUAGE plpgsql AS $$
DECLARE
  known INTEGER := CASE WHEN TG_OP = 'INSERT' THEN 0 ELSE jsonb_array_length(OLD.history) END;
BEGIN
  IF jsonb_array_length(NEW.history) > known THEN
    INSERT INTO "relay_tracker"."submission_events" ("submission_id", "seq", "status", "at", "org_id", "state")
    SELECT NEW.id, e.ord::INTEGER, e.entry->>'status', (e.entry->>'at')::TIMESTAMPTZ, NEW.submitted_by_org,
           "relay_tracker"."submission_state"(NEW, e.entry->>'status')
    FROM jsonb_array_elements(NEW.history) WITH ORDINALITY AS e(entry, ord)
    WHERE e.ord > known;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER "submissions_record_events"
AFTER INSERT OR UPDATE OF "history" ON "relay_tracker"."submissions"
FOR EACH ROW EXECUTE FUNCTION "relay_tracker"."record_submission_events"();

-- Submissions made before: their history as events, each with the row's current values
-- (the values at earlier transitions were not kept).
INSERT INTO "relay_tracker"."submission_events" ("submission_id", "seq", "status", "at", "org_id", "state")
SELECT s.id, e.ord::INTEGER, e.entry->>'status', (e.entry->>'at')::TIMESTAMPTZ, s.submitted_by_org,
       "relay_tracker"."submission_state"(s, e.entry->>'status')
FROM "relay_tracker"."submissions" s, jsonb_array_elements(s.history) WITH ORDINALITY AS e(entry, ord);
