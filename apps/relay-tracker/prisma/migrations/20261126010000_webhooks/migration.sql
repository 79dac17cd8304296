-- Webhook endpoints of organisations (managed in the partner portal): where each sends,
-- which events, its signing secret sealed with WEBHOOK_ENCRYPTION_KEY (and the previous one
-- while a rotation's overlap lasts), and whether it was disabled for failing.
CREATE TABLE "relay_tracker"."webhook_endpoints" (
    "id" UUID NOT NULL,
    "org_id" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "description" TEXT,
    "events" TEXT[] NOT NULL DEFAULT ARRAY['submission.status']::TEXT[],
    "secret" TEXT NOT NULL,
    "previous_secret" TEXT,
    "previous_secret_until" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "created_by" TEXT,
    "failing_since" TIMESTAMPTZ(3),
    "disabled_at" TIMESTAMPTZ(3),
    "disabled_reason" TEXT,

    CONSTRAINT "webhook_endpoints_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "webhook_endpoints_org_id_idx" ON "relay_tracker"."webhook_endpoints"("org_id");

-- One message to one endpoint (its id is the webhook-id, the same on every attempt): a
-- transition of a submission of the endpoint's organisation, or a test. `next_attempt_at`
-- is when it is tried (again); null once delivered or given up.
CREATE TABLE "relay_tracker"."webhook_deliveries" (
    "id" UUID NOT NULL,
    "endpoint_id" UUID NOT NULL,
    "type" TEXT NOT NULL,
    "submission_id" UUID,
    "seq" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3),
    "last_attempt_at" TIMESTAMPTZ(3),
    "last_status_code" INTEGER,
    "last_error" TEXT,
    "last_latency_ms" INTEGER,
    "delivered_at" TIMESTAMPTZ(3),
    "gave_up_at" TIMESTAMPTZ(3),

    CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "webhook_deliveries_endpoint_id_fkey" FOREIGN KEY ("endpoint_id")
        REFERENCES "relay_tracker"."webhook_endpoints"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "webhook_deliveries_submission_id_fkey" FOREIGN KEY ("submission_id")
        REFERENCES "relay_tracker"."submissions"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "webhook_deliveries_next_attempt_at_idx" ON "relay_tracker"."webhook_deliveries"("next_attempt_at") WHERE "next_attempt_at" IS NOT NULL;
CREATE INDEX "webhook_deliveries_endpoint_id_created_at_idx" ON "relay_tracker"."webhook_deliveries"("endpoint_id", "created_at" DESC);
CREATE INDEX "webhook_deliveries_endpoint_id_submission_id_seq_idx" ON "relay_tracker"."webhook_deliveries"("endpoint_id", "submission_id", "seq");

-- The outbox: every event of a submission of an organisation becomes a delivery to each of
-- its enabled endpoints that wants it, in the same transaction as the transition itself.
CREATE FUNCTION "relay_tracker"."queue_webhook_deliveries"() RETURNS TRIGGER
LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.org_id IS NOT NULL THEN
    INSERT INTO "relay_tracker"."webhook_deliveries" ("id", "endpoint_id", "type", "submission_id", "seq", "next_attempt_at")
    SELECT gen_random_uuid(), w.id,
           CASE WHEN 'submission.status' = ANY(w.events) THEN 'submission.status' ELSE 'submission.terminal' END,
           NEW.submission_id, NEW.seq, CURRENT_TIMESTAMP
    FROM "relay_tracker"."webhook_endpoints" w
    WHERE w.org_id = NEW.org_id AND w.disabled_at IS NULL
      AND ('submission.status' = ANY(w.events) OR ('submission.terminal' = ANY(w.events) AND NEW.status IN ('solved', 'failed')));
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER "submission_events_queue_webhooks"
AFTER INSERT ON "relay_tracker"."submission_events"
FOR EACH ROW EXECUTE FUNCTION "relay_tracker"."queue_webhook_deliveries"();

-- The webhook sender's work items in the embedded default (WORK_QUEUE=postgres).
CREATE TABLE "relay_tracker"."webhook_work_items" (
    "id" TEXT NOT NULL,
    "due_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lease_until" TIMESTAMPTZ(3),
    "leased_by" TEXT,

    CONSTRAINT "webhook_work_items_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "webhook_work_items_due_at_idx" ON "relay_tracker"."webhook_work_items"("due_at");
