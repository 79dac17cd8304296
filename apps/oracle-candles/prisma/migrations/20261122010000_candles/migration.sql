-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "oracle_candles";

-- CreateTable
CREATE TABLE "oracle_candles"."candles" (
    "symbol" TEXT NOT NULL,
    "interval_s" INTEGER NOT NULL,
    "bucket" BIGINT NOT NULL,
    "open" DECIMAL(38,18) NOT NULL,
    "high" DECIMAL(38,18) NOT NULL,
    "low" DECIMAL(38,18) NOT NULL,
    "close" DECIMAL(38,18) NOT NULL,
    "open_time" BIGINT NOT NULL,
    "close_time" BIGINT NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "candles_pkey" PRIMARY KEY ("symbol","interval_s","bucket")
);

-- CreateTable
CREATE TABLE "oracle_candles"."markets" (
    "symbol" TEXT NOT NULL,
    "first_seen_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "markets_pkey" PRIMARY KEY ("symbol")
);
