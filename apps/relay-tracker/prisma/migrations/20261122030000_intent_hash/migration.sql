-- AlterTable
ALTER TABLE "relay_tracker"."submissions" ADD COLUMN "intent_hash" CHAR(66);

-- CreateIndex
CREATE INDEX "submissions_intent_hash_idx" ON "relay_tracker"."submissions"("intent_hash");
