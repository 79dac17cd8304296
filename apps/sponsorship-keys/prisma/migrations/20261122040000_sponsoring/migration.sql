-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "sponsorship_keys";

-- CreateTable
CREATE TABLE "sponsorship_keys"."sponsoring_keys" (
    "id" UUID NOT NULL,
    "owner" VARCHAR(64) NOT NULL,
    "prefix" VARCHAR(16) NOT NULL,
    "key_hash" CHAR(64) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "created_by" TEXT NOT NULL,

    CONSTRAINT "sponsoring_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sponsorship_keys"."sponsorship_requests" (
    "id" UUID NOT NULL,
    "owner" VARCHAR(64) NOT NULL,
    "key_id" UUID,
    "chain_key" TEXT NOT NULL,
    "wallet_address" TEXT NOT NULL,
    "note" VARCHAR(280),
    "status" TEXT NOT NULL DEFAULT 'received',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sponsorship_requests_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sponsorship_keys"."keyset_state" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "version" BIGINT NOT NULL,

    CONSTRAINT "keyset_state_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "sponsoring_keys_key_hash_key" ON "sponsorship_keys"."sponsoring_keys"("key_hash");

-- CreateIndex
CREATE INDEX "sponsorship_requests_owner_created_at_idx" ON "sponsorship_keys"."sponsorship_requests"("owner", "created_at");

INSERT INTO "sponsorship_keys"."keyset_state" ("id", "version") VALUES (1, 1);
