-- A build's operation (a swap, or a vault deposit or withdrawal), so an adopted one keeps it.
ALTER TABLE "relay_tracker"."build_records" ADD COLUMN "operation" TEXT NOT NULL DEFAULT 'swap';
