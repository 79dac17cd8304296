-- Chain followers: one row per followed chain, its lease (which replica reads it) and its
-- durable cursor (the last block read into the index, and up to where its events were
-- handed to settlement).
CREATE TABLE "relay_tracker"."chain_followers" (
    "chain_key" TEXT NOT NULL,
    "holder" TEXT,
    "lease_until" TIMESTAMPTZ(3),
    "cursor_number" BIGINT,
    "cursor_hash" TEXT,
    "cursor_time" TIMESTAMPTZ(3),
    "published_through" BIGINT,
    "head_number" BIGINT,
    "head_time" TIMESTAMPTZ(3),
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "chain_followers_pkey" PRIMARY KEY ("chain_key")
);

-- The recent blocks a follower read (their hashes), to find where a reorganised chain forked.
CREATE TABLE "relay_tracker"."chain_blocks" (
    "chain_key" TEXT NOT NULL,
    "number" BIGINT NOT NULL,
    "hash" TEXT NOT NULL,

    CONSTRAINT "chain_blocks_pkey" PRIMARY KEY ("chain_key", "number")
);

-- The index: every event of the contracts settlement follows (the hub's intents, the
-- connections' messages, their deliveries), one row per log.
CREATE TABLE "relay_tracker"."chain_events" (
    "id" BIGSERIAL NOT NULL,
    "chain_key" TEXT NOT NULL,
    "block_number" BIGINT NOT NULL,
    "block_hash" TEXT NOT NULL,
    "log_index" INTEGER NOT NULL,
    "tx_hash" TEXT NOT NULL,
    "block_time" TIMESTAMPTZ(3) NOT NULL,
    "kind" TEXT NOT NULL,
    "intent_hash" CHAR(66),
    "peer_chain" TEXT,
    "conn_sn" NUMERIC(78, 0),
    "data" JSONB NOT NULL DEFAULT '{}',

    CONSTRAINT "chain_events_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "chain_events_chain_key_block_number_log_index_key" ON "relay_tracker"."chain_events"("chain_key", "block_number", "log_index");
CREATE INDEX "chain_events_intent_hash_idx" ON "relay_tracker"."chain_events"("intent_hash");
CREATE INDEX "chain_events_chain_key_tx_hash_idx" ON "relay_tracker"."chain_events"("chain_key", "tx_hash");
CREATE INDEX "chain_events_chain_key_kind_peer_chain_conn_sn_idx" ON "relay_tracker"."chain_events"("chain_key", "kind", "peer_chain", "conn_sn");

-- Intents this deployment built, announced by quote-builder: adopted from the chain when
-- nobody submits them.
CREATE TABLE "relay_tracker"."build_records" (
    "intent_hash" CHAR(66) NOT NULL,
    "src_chain_key" TEXT NOT NULL,
    "dst_chain_key" TEXT NOT NULL,
    "org_id" TEXT,
    "built_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "keep_until" TIMESTAMPTZ(3) NOT NULL,
    "adopted_at" TIMESTAMPTZ(3),

    CONSTRAINT "build_records_pkey" PRIMARY KEY ("intent_hash")
);
CREATE INDEX "build_records_keep_until_idx" ON "relay_tracker"."build_records"("keep_until");

-- Submissions: woken by events instead of polled. `version` grows with every change of the
-- status answer (the read model keeps the newest); `event_seq` with every event that
-- concerns the swap (a step that saw none since it looked may wait); `wake_at` is when it
-- is looked at again without an event (a rule's deadline, or the slow fallback check).
ALTER TABLE "relay_tracker"."submissions"
    ADD COLUMN "version" BIGINT NOT NULL DEFAULT 1,
    ADD COLUMN "event_seq" INTEGER NOT NULL DEFAULT 0,
    ADD COLUMN "wake_at" TIMESTAMPTZ(3),
    ADD COLUMN "adopted" BOOLEAN NOT NULL DEFAULT false,
    ADD COLUMN "claims_pending" BOOLEAN NOT NULL DEFAULT false;

-- Claims compared only with the first claim so far (settled once the chain is read).
UPDATE "relay_tracker"."submissions" s SET "claims_pending" = true
WHERE EXISTS (SELECT 1 FROM "relay_tracker"."rejected_claims" c WHERE c."submission_id" = s."id" AND NOT c."settled");

UPDATE "relay_tracker"."submissions" SET "wake_at" = CURRENT_TIMESTAMP
WHERE "status" NOT IN ('solved', 'failed') OR ("status" = 'failed' AND "failed_at_step" = 'posted_execution' AND NOT "intent_cancelled");

CREATE INDEX "submissions_wake_at_idx" ON "relay_tracker"."submissions"("wake_at");
CREATE INDEX "submissions_fill_tx_hash_idx" ON "relay_tracker"."submissions"("fill_tx_hash");
