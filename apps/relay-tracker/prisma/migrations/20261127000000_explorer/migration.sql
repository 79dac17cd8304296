-- The explorer's read models of the hub index (the data API's /v1/be/intent/*, /solver/*,
-- /partners*): one row per intent the hub created, with its state as of its newest event,
-- and one row per fill. Both are kept by triggers on chain_events, in the statement that
-- adds or retracts the event (a follower's range commit, a reorganisation's rewind): they
-- hold exactly what the index holds, whichever path wrote it.
CREATE TABLE "relay_tracker"."explorer_intents" (
    "intent_hash" CHAR(66) NOT NULL,
    "chain_key" TEXT NOT NULL,
    "tx_hash" TEXT NOT NULL,
    "log_index" INTEGER NOT NULL,
    "block_number" BIGINT NOT NULL,
    "block_time" TIMESTAMPTZ(3) NOT NULL,
    -- The intent as the IntentCreated event carries it (amounts as decimal strings).
    "intent" JSONB NOT NULL,
    -- Lower case: the hub wallet that created it, and the source-chain address it was built for (its bytes in hex).
    "creator" TEXT NOT NULL,
    "src_address" TEXT NOT NULL,
    "src_chain" NUMERIC(78, 0) NOT NULL,
    "dst_chain" NUMERIC(78, 0) NOT NULL,
    "input_token" TEXT NOT NULL,
    "output_token" TEXT NOT NULL,
    "deadline" NUMERIC(78, 0) NOT NULL,
    -- The partner fee intent.data names (receiver lower case), if any.
    "fee_receiver" TEXT,
    "fee_amount" NUMERIC(78, 0),
    "remaining_input" NUMERIC(78, 0) NOT NULL,
    "received_output" NUMERIC(78, 0) NOT NULL DEFAULT 0,
    "pending_payment" BOOLEAN NOT NULL DEFAULT false,
    "cancelled" BOOLEAN NOT NULL DEFAULT false,
    -- Not cancelled and input remains: in the orderbook.
    "open" BOOLEAN NOT NULL DEFAULT true,

    CONSTRAINT "explorer_intents_pkey" PRIMARY KEY ("intent_hash")
);
CREATE INDEX "explorer_intents_tx_hash_idx" ON "relay_tracker"."explorer_intents"("tx_hash");
CREATE INDEX "explorer_intents_creator_idx" ON "relay_tracker"."explorer_intents"("creator", "block_number" DESC, "log_index" DESC);
CREATE INDEX "explorer_intents_src_address_idx" ON "relay_tracker"."explorer_intents"("src_address", "block_number" DESC, "log_index" DESC);
CREATE INDEX "explorer_intents_open_idx" ON "relay_tracker"."explorer_intents"("block_number" DESC, "log_index" DESC) WHERE "open";
CREATE INDEX "explorer_intents_fee_receiver_idx" ON "relay_tracker"."explorer_intents"("fee_receiver") WHERE "fee_receiver" IS NOT NULL;

-- One row per IntentFilled event: what that fill took of the input and gave of the output
-- (the difference from the intent's previous state), and who sent it.
CREATE TABLE "relay_tracker"."explorer_fills" (
    "block_number" BIGINT NOT NULL,
    "log_index" INTEGER NOT NULL,
    "chain_key" TEXT NOT NULL,
    "intent_hash" CHAR(66) NOT NULL,
    "tx_hash" TEXT NOT NULL,
    "block_time" TIMESTAMPTZ(3) NOT NULL,
    "solver" TEXT NOT NULL,
    "input_token" TEXT NOT NULL,
    "output_token" TEXT NOT NULL,
    "input_amount" NUMERIC(78, 0) NOT NULL,
    "output_amount" NUMERIC(78, 0) NOT NULL,

    CONSTRAINT "explorer_fills_pkey" PRIMARY KEY ("block_number", "log_index", "chain_key")
);
CREATE INDEX "explorer_fills_intent_hash_idx" ON "relay_tracker"."explorer_fills"("intent_hash");
CREATE INDEX "explorer_fills_solver_idx" ON "relay_tracker"."explorer_fills"("solver", "block_number", "log_index");
CREATE INDEX "explorer_fills_input_token_idx" ON "relay_tracker"."explorer_fills"("input_token", "block_number", "log_index");
CREATE INDEX "explorer_fills_output_token_idx" ON "relay_tracker"."explorer_fills"("output_token", "block_number", "log_index");
CREATE INDEX "explorer_fills_block_time_idx" ON "relay_tracker"."explorer_fills"("block_time");

-- The partner fee an intent's data carries (0x01, then the fee and its receiver ABI-encoded: libs/chains partnerFeeData).
CREATE FUNCTION "relay_tracker"."explorer_fee_amount"(data TEXT) RETURNS NUMERIC
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  result NUMERIC := 0;
  digit INTEGER;
BEGIN
  IF data IS NULL OR data !~* '^0x01[0-9a-f]{128}$' THEN RETURN NULL; END IF;
  FOR digit IN SELECT get_byte(decode(substr(data, 5, 64), 'hex'), g) FROM generate_series(0, 31) AS g LOOP
    result := result * 256 + digit;
  END LOOP;
  RETURN result;
END $$;

CREATE FUNCTION "relay_tracker"."explorer_fee_receiver"(data TEXT) RETURNS TEXT
LANGUAGE SQL IMMUTABLE AS $$
  SELECT CASE WHEN data ~* '^0x01[0-9a-f]{128}$' THEN '0x' || lower(right(data, 40)) END
$$;

-- An intent's state from the index: its newest fill (or none: all input remains) and whether it was cancelled.
CREATE FUNCTION "relay_tracker"."explorer_refresh_intent"(hash CHAR(66)) RETURNS VOID
LANGUAGE plpgsql AS $$
DECLARE
  fill JSONB;
  was_cancelled BOOLEAN;
BEGIN
  SELECT e.data INTO fill FROM "relay_tracker"."chain_events" e
  WHERE e.intent_hash = hash AND e.kind = 'intent_filled' ORDER BY e.block_number DESC, e.log_index DESC LIMIT 1;
  was_cancelled := EXISTS (SELECT 1 FROM "relay_tracker"."chain_events" e WHERE e.intent_hash = hash AND e.kind = 'intent_cancelled');
  UPDATE "relay_tracker"."explorer_intents" i SET
    "remaining_input" = COALESCE((fill->>'remainingInput')::NUMERIC, (i.intent->>'inputAmount')::NUMERIC),
    "received_output" = COALESCE((fill->>'receivedOutput')::NUMERIC, 0),
    "pending_payment" = COALESCE((fill->>'pendingPayment')::BOOLEAN, false),
    "cancelled" = was_cancelled,
    "open" = NOT was_cancelled AND COALESCE((fill->>'remainingInput')::NUMERIC, (i.intent->>'inputAmount')::NUMERIC) > 0
  WHERE i.intent_hash = hash;
END $$;

CREATE FUNCTION "relay_tracker"."explorer_index_event"() RETURNS TRIGGER
LANGUAGE plpgsql AS $$
DECLARE
  ev "relay_tracker"."chain_events" := CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
  created "relay_tracker"."explorer_intents";
  prev JSONB;
BEGIN
  IF ev.intent_hash IS NULL THEN RETURN NULL; END IF;
  IF TG_OP = 'DELETE' THEN
    IF ev.kind = 'intent_created' THEN
      DELETE FROM "relay_tracker"."explorer_intents" WHERE intent_hash = ev.intent_hash AND tx_hash = ev.tx_hash AND log_index = ev.log_index;
      RETURN NULL;
    END IF;
    IF ev.kind = 'intent_filled' THEN
      DELETE FROM "relay_tracker"."explorer_fills" WHERE block_number = ev.block_number AND log_index = ev.log_index AND chain_key = ev.chain_key;
    END IF;
    PERFORM "relay_tracker"."explorer_refresh_intent"(ev.intent_hash);
    RETURN NULL;
  END IF;
  IF ev.kind = 'intent_created' THEN
    INSERT INTO "relay_tracker"."explorer_intents" ("intent_hash", "chain_key", "tx_hash", "log_index", "block_number", "block_time", "intent",
      "creator", "src_address", "src_chain", "dst_chain", "input_token", "output_token", "deadline", "fee_receiver", "fee_amount", "remaining_input")
    SELECT ev.intent_hash, ev.chain_key, ev.tx_hash, ev.log_index, ev.block_number, ev.block_time, ev.data->'intent',
      lower(ev.data->'intent'->>'creator'), lower(ev.data->'intent'->>'srcAddress'),
      (ev.data->'intent'->>'srcChain')::NUMERIC, (ev.data->'intent'->>'dstChain')::NUMERIC,
      lower(ev.data->'intent'->>'inputToken'), lower(ev.data->'intent'->>'outputToken'), (ev.data->'intent'->>'deadline')::NUMERIC,
      "relay_tracker"."explorer_fee_receiver"(ev.data->'intent'->>'data'), "relay_tracker"."explorer_fee_amount"(ev.data->'intent'->>'data'), (ev.data->'intent'->>'inputAmount')::NUMERIC
    WHERE ev.data ? 'intent'
    ON CONFLICT ("intent_hash") DO NOTHING;
  ELSIF ev.kind = 'intent_filled' THEN
    SELECT i.* INTO created FROM "relay_tracker"."explorer_intents" i WHERE i.intent_hash = ev.intent_hash;
    -- A fill of an intent created before the index began is not counted (its tokens are unknown).
    IF created.intent_hash IS NULL THEN RETURN NULL; END IF;
    SELECT e.data INTO prev FROM "relay_tracker"."chain_events" e
    WHERE e.intent_hash = ev.intent_hash AND e.kind = 'intent_filled' AND (e.block_number, e.log_index) < (ev.block_number, ev.log_index)
    ORDER BY e.block_number DESC, e.log_index DESC LIMIT 1;
    INSERT INTO "relay_tracker"."explorer_fills" ("block_number", "log_index", "chain_key", "intent_hash", "tx_hash", "block_time", "solver",
      "input_token", "output_token", "input_amount", "output_amount")
    VALUES (ev.block_number, ev.log_index, ev.chain_key, ev.intent_hash, ev.tx_hash, ev.block_time,
      COALESCE(lower(ev.data->>'solver'), ''), created.input_token, created.output_token,
      GREATEST(0, COALESCE((prev->>'remainingInput')::NUMERIC, (created.intent->>'inputAmount')::NUMERIC) - (ev.data->>'remainingInput')::NUMERIC),
      GREATEST(0, (ev.data->>'receivedOutput')::NUMERIC - COALESCE((prev->>'receivedOutput')::NUMERIC, 0)))
    ON CONFLICT DO NOTHING;
  END IF;
  PERFORM "relay_tracker"."explorer_refresh_intent"(ev.intent_hash);
  RETURN NULL;
END $$;

CREATE TRIGGER "chain_events_explorer_added"
AFTER INSERT ON "relay_tracker"."chain_events"
FOR EACH ROW WHEN (NEW.kind IN ('intent_created', 'intent_filled', 'intent_cancelled'))
EXECUTE FUNCTION "relay_tracker"."explorer_index_event"();

CREATE TRIGGER "chain_events_explorer_retracted"
AFTER DELETE ON "relay_tracker"."chain_events"
FOR EACH ROW WHEN (OLD.kind IN ('intent_created', 'intent_filled', 'intent_cancelled'))
EXECUTE FUNCTION "relay_tracker"."explorer_index_event"();

-- What the index held before: its intents, their fills (in order: each takes the difference
-- from the one before), their states. Fills indexed before name no solver ('').
INSERT INTO "relay_tracker"."explorer_intents" ("intent_hash", "chain_key", "tx_hash", "log_index", "block_number", "block_time", "intent",
  "creator", "src_address", "src_chain", "dst_chain", "input_token", "output_token", "deadline", "fee_receiver", "fee_amount", "remaining_input")
SELECT ev.intent_hash, ev.chain_key, ev.tx_hash, ev.log_index, ev.block_number, ev.block_time, ev.data->'intent',
  lower(ev.data->'intent'->>'creator'), lower(ev.data->'intent'->>'srcAddress'),
  (ev.data->'intent'->>'srcChain')::NUMERIC, (ev.data->'intent'->>'dstChain')::NUMERIC,
  lower(ev.data->'intent'->>'inputToken'), lower(ev.data->'intent'->>'outputToken'), (ev.data->'intent'->>'deadline')::NUMERIC,
  "relay_tracker"."explorer_fee_receiver"(ev.data->'intent'->>'data'), "relay_tracker"."explorer_fee_amount"(ev.data->'intent'->>'data'),
  (ev.data->'intent'->>'inputAmount')::NUMERIC
FROM "relay_tracker"."chain_events" ev
WHERE ev.kind = 'intent_created' AND ev.intent_hash IS NOT NULL AND ev.data ? 'intent'
ON CONFLICT ("intent_hash") DO NOTHING;

INSERT INTO "relay_tracker"."explorer_fills" ("block_number", "log_index", "chain_key", "intent_hash", "tx_hash", "block_time", "solver",
  "input_token", "output_token", "input_amount", "output_amount")
SELECT ev.block_number, ev.log_index, ev.chain_key, ev.intent_hash, ev.tx_hash, ev.block_time, COALESCE(lower(ev.data->>'solver'), ''),
  i.input_token, i.output_token,
  GREATEST(0, COALESCE(LAG((ev.data->>'remainingInput')::NUMERIC) OVER w, (i.intent->>'inputAmount')::NUMERIC) - (ev.data->>'remainingInput')::NUMERIC),
  GREATEST(0, (ev.data->>'receivedOutput')::NUMERIC - COALESCE(LAG((ev.data->>'receivedOutput')::NUMERIC) OVER w, 0))
FROM "relay_tracker"."chain_events" ev
JOIN "relay_tracker"."explorer_intents" i ON i.intent_hash = ev.intent_hash
WHERE ev.kind = 'intent_filled'
WINDOW w AS (PARTITION BY ev.intent_hash ORDER BY ev.block_number, ev.log_index)
ON CONFLICT DO NOTHING;

SELECT "relay_tracker"."explorer_refresh_intent"(i.intent_hash) FROM "relay_tracker"."explorer_intents" i;
