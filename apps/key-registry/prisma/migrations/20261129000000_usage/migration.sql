-- Usage of keyed routes, counted by swap-gateway and written in batches: per minute for two
-- days, then rolled up to hours (kept 90 days). Empty org_id and key_id: no key identified one.
CREATE TABLE "key_registry"."usage_minutes" (
    "minute" TIMESTAMPTZ(0) NOT NULL,
    "org_id" TEXT NOT NULL,
    "key_id" TEXT NOT NULL,
    "route" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "requests" INTEGER NOT NULL,
    "client_errors" INTEGER NOT NULL,
    "server_errors" INTEGER NOT NULL,
    CONSTRAINT "usage_minutes_pkey" PRIMARY KEY ("minute", "org_id", "key_id", "route", "outcome")
);
CREATE INDEX "usage_minutes_org_id_minute_idx" ON "key_registry"."usage_minutes"("org_id", "minute");

CREATE TABLE "key_registry"."usage_hours" (
    "hour" TIMESTAMPTZ(0) NOT NULL,
    "org_id" TEXT NOT NULL,
    "key_id" TEXT NOT NULL,
    "route" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "requests" INTEGER NOT NULL,
    "client_errors" INTEGER NOT NULL,
    "server_errors" INTEGER NOT NULL,
    CONSTRAINT "usage_hours_pkey" PRIMARY KEY ("hour", "org_id", "key_id", "route", "outcome")
);
CREATE INDEX "usage_hours_org_id_hour_idx" ON "key_registry"."usage_hours"("org_id", "hour");

-- A batch resent after a lost reply is counted once.
CREATE TABLE "key_registry"."usage_batches" (
    "id" UUID NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "usage_batches_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "usage_batches_at_idx" ON "key_registry"."usage_batches"("at");
