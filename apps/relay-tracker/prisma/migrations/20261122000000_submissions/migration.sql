-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "relay_tracker";

-- CreateEnum
CREATE TYPE "relay_tracker"."SubmissionStatus" AS ENUM ('pending', 'relaying', 'relayed', 'posting_execution', 'posted_execution', 'solved', 'failed');

-- CreateTable
CREATE TABLE "relay_tracker"."submissions" (
    "id" UUID NOT NULL,
    "tx_hash" TEXT NOT NULL,
    "src_chain_key" TEXT NOT NULL,
    "wallet_address" TEXT NOT NULL,
    "intent" JSONB NOT NULL,
    "relay_data" TEXT NOT NULL,
    "status" "relay_tracker"."SubmissionStatus" NOT NULL DEFAULT 'pending',
    "user_message" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "submissions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "submissions_tx_hash_src_chain_key_key" ON "relay_tracker"."submissions"("tx_hash", "src_chain_key");

-- CreateIndex
CREATE INDEX "submissions_status_updated_at_idx" ON "relay_tracker"."submissions"("status", "updated_at");
