-- The key set's epoch: versions count up within an epoch, and an operator starts a new one
-- (explicitly, signed like every key set) after a restore took the version back. Services
-- refuse any set not newer than the one they hold, so without it a restore would be ignored.
ALTER TABLE "key_registry"."keyset_state" ADD COLUMN "epoch" BIGINT NOT NULL DEFAULT 1;
