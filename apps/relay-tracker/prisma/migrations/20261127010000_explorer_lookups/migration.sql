-- The explorer finds a swap by its fill transaction too (and, through it, by its delivery).
CREATE INDEX "explorer_fills_tx_hash_idx" ON "relay_tracker"."explorer_fills"("tx_hash");
