-- The partner portal lists an organisation's swaps, newest first (keyset on creation time and id).
CREATE INDEX "submissions_submitted_by_org_created_at_id_idx" ON "relay_tracker"."submissions"("submitted_by_org", "created_at" DESC, "id" DESC);
