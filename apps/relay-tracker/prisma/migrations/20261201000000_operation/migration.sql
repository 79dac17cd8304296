-- What a submission is: a swap, or a leveraged-yield deposit or withdrawal (POST /v1/leverage-yield/submit-tx).
ALTER TABLE "relay_tracker"."submissions" ADD COLUMN "operation" TEXT NOT NULL DEFAULT 'swap';
