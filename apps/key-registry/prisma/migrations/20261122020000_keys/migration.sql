-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "key_registry";

-- CreateEnum
CREATE TYPE "key_registry"."OrganisationStatus" AS ENUM ('active', 'suspended');

-- CreateTable
CREATE TABLE "key_registry"."organisations" (
    "id" UUID NOT NULL,
    "name" VARCHAR(128) NOT NULL,
    "status" "key_registry"."OrganisationStatus" NOT NULL DEFAULT 'active',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "organisations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "key_registry"."api_keys" (
    "id" UUID NOT NULL,
    "organisation_id" UUID NOT NULL,
    "name" VARCHAR(64) NOT NULL,
    "prefix" VARCHAR(16) NOT NULL,
    "key_hash" CHAR(64) NOT NULL,
    "scopes" TEXT[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "created_by" TEXT NOT NULL,

    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "key_registry"."audit_log" (
    "id" BIGSERIAL NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "actor" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "organisation_id" UUID,
    "target" TEXT,
    "request_id" TEXT,
    "details" JSONB,

    CONSTRAINT "audit_log_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "key_registry"."enforcement_modes" (
    "family" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_by" TEXT NOT NULL,

    CONSTRAINT "enforcement_modes_pkey" PRIMARY KEY ("family")
);

-- CreateTable
CREATE TABLE "key_registry"."keyset_state" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "version" BIGINT NOT NULL,

    CONSTRAINT "keyset_state_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "api_keys_key_hash_key" ON "key_registry"."api_keys"("key_hash");

-- CreateIndex
CREATE INDEX "api_keys_organisation_id_idx" ON "key_registry"."api_keys"("organisation_id");

-- CreateIndex
CREATE INDEX "audit_log_organisation_id_at_idx" ON "key_registry"."audit_log"("organisation_id", "at");

-- AddForeignKey
ALTER TABLE "key_registry"."api_keys" ADD CONSTRAINT "api_keys_organisation_id_fkey" FOREIGN KEY ("organisation_id") REFERENCES "key_registry"."organisations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Seed: the key set starts at version 1; public deployments start with key checks off on
-- the swaps and leveraged-yield routes (spec: Key enforcement mode).
INSERT INTO "key_registry"."keyset_state" ("id", "version") VALUES (1, 1);
INSERT INTO "key_registry"."enforcement_modes" ("family", "mode", "updated_by") VALUES ('swaps', 'off', 'migration'), ('leverage-yield', 'off', 'migration');
