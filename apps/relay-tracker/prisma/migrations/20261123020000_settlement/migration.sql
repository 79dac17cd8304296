-- EVM transaction hashes are case-insensitive: keep the first submission of each pair
-- (by creation) and store every EVM hash in lower case, so 0xABC… after 0xabc… is a duplicate.
DELETE FROM "relay_tracker"."submissions" s
USING "relay_tracker"."submissions" t
WHERE s."tx_hash" ~ '^0x[0-9a-fA-F]{64}$' AND t."tx_hash" ~ '^0x[0-9a-fA-F]{64}$'
  AND lower(s."tx_hash") = lower(t."tx_hash") AND s."src_chain_key" = t."src_chain_key"
  AND (s."created_at", s."id") > (t."created_at", t."id");
UPDATE "relay_tracker"."submissions" SET "tx_hash" = lower("tx_hash") WHERE "tx_hash" ~ '^0x[0-9a-fA-F]{64}$' AND "tx_hash" <> lower("tx_hash");

-- AlterTable: the settlement pipeline's state
ALTER TABLE "relay_tracker"."submissions"
    ADD COLUMN "history" JSONB NOT NULL DEFAULT '[]',
    ADD COLUMN "processing_attempts" INTEGER NOT NULL DEFAULT 0,
    ADD COLUMN "failed_at_step" TEXT,
    ADD COLUMN "verified" BOOLEAN NOT NULL DEFAULT false,
    ADD COLUMN "not_found_since" TIMESTAMPTZ(3),
    ADD COLUMN "hub_tx_hash" TEXT,
    ADD COLUMN "fill_tx_hash" TEXT,
    ADD COLUMN "delivery_tx_hash" TEXT,
    ADD COLUMN "intent_cancelled" BOOLEAN NOT NULL DEFAULT false,
    ADD COLUMN "submitted_by_org" TEXT;

UPDATE "relay_tracker"."submissions"
SET "history" = jsonb_build_array(jsonb_build_object('status', 'pending', 'at', to_char("created_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'detail', 'submitted'));

-- CreateTable: claims that did not match the chain (kept for audit, never the swap's state)
CREATE TABLE "relay_tracker"."rejected_claims" (
    "id" BIGSERIAL NOT NULL,
    "submission_id" UUID NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "wallet_address" TEXT NOT NULL,
    "intent" JSONB NOT NULL,
    "relay_data" TEXT NOT NULL,
    "intent_hash" TEXT NOT NULL,
    "settled" BOOLEAN NOT NULL DEFAULT true,
    "org_id" TEXT,
    "request_id" TEXT,
    "reason" TEXT NOT NULL,

    CONSTRAINT "rejected_claims_pkey" PRIMARY KEY ("id")
);

-- CreateTable: the work queue of the embedded default (SKIP LOCKED leases)
CREATE TABLE "relay_tracker"."work_items" (
    "id" TEXT NOT NULL,
    "due_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lease_until" TIMESTAMPTZ(3),
    "leased_by" TEXT,

    CONSTRAINT "work_items_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "rejected_claims_submission_id_idx" ON "relay_tracker"."rejected_claims"("submission_id");

-- CreateIndex
CREATE INDEX "work_items_due_at_idx" ON "relay_tracker"."work_items"("due_at");

-- AddForeignKey
ALTER TABLE "relay_tracker"."rejected_claims" ADD CONSTRAINT "rejected_claims_submission_id_fkey" FOREIGN KEY ("submission_id") REFERENCES "relay_tracker"."submissions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Submissions still in flight get their work item.
INSERT INTO "relay_tracker"."work_items" ("id") SELECT "id"::text FROM "relay_tracker"."submissions" WHERE "status" NOT IN ('solved', 'failed');
