-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "quote_builder";

-- CreateEnum
CREATE TYPE "quote_builder"."SolverStatus" AS ENUM ('active', 'suspended');

-- CreateEnum
CREATE TYPE "quote_builder"."ExecutionStatus" AS ENUM ('posted', 'solved');

-- CreateTable
CREATE TABLE "quote_builder"."solvers" (
    "id" UUID NOT NULL,
    "name" VARCHAR(64) NOT NULL,
    "credential_hash" CHAR(64) NOT NULL,
    "prefix" VARCHAR(16) NOT NULL,
    "status" "quote_builder"."SolverStatus" NOT NULL DEFAULT 'active',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "created_by" TEXT NOT NULL,

    CONSTRAINT "solvers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "quote_builder"."quotes" (
    "id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "request_id" TEXT,
    "src_chain_key" TEXT,
    "dst_chain_key" TEXT,
    "token_src" TEXT,
    "token_dst" TEXT,
    "hub_token_src" TEXT NOT NULL,
    "hub_token_dst" TEXT NOT NULL,
    "amount" DECIMAL(78,0) NOT NULL,
    "fee_amount" DECIMAL(78,0) NOT NULL,
    "hub_amount_in" DECIMAL(78,0) NOT NULL,
    "hub_quoted_amount" DECIMAL(78,0) NOT NULL,
    "quoted_amount" DECIMAL(78,0) NOT NULL,
    "solver_id" UUID NOT NULL,
    "solver_name" TEXT NOT NULL,
    "answers" JSONB NOT NULL,

    CONSTRAINT "quotes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "quote_builder"."executions" (
    "intent_hash" CHAR(66) NOT NULL,
    "intent_tx_hash" CHAR(66) NOT NULL,
    "intent" JSONB NOT NULL,
    "deadline" DECIMAL(78,0) NOT NULL,
    "quote_id" UUID,
    "exclusive_solver" UUID,
    "exclusive_until" TIMESTAMPTZ(3),
    "opened_to_all_at" TIMESTAMPTZ(3),
    "status" "quote_builder"."ExecutionStatus" NOT NULL DEFAULT 'posted',
    "fill_tx_hash" CHAR(66),
    "filled_by" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "executions_pkey" PRIMARY KEY ("intent_hash")
);

-- CreateIndex
CREATE UNIQUE INDEX "solvers_name_key" ON "quote_builder"."solvers"("name");

-- CreateIndex
CREATE UNIQUE INDEX "solvers_credential_hash_key" ON "quote_builder"."solvers"("credential_hash");

-- CreateIndex
CREATE INDEX "quotes_created_at_idx" ON "quote_builder"."quotes"("created_at");

-- CreateIndex
CREATE INDEX "executions_intent_tx_hash_idx" ON "quote_builder"."executions"("intent_tx_hash");

-- CreateIndex
CREATE INDEX "executions_status_created_at_idx" ON "quote_builder"."executions"("status", "created_at");

-- CreateIndex
CREATE INDEX "executions_opened_to_all_at_exclusive_until_idx" ON "quote_builder"."executions"("opened_to_all_at", "exclusive_until");
