-- The trace context of the execute that posted an intent, carried by every frame that offers it.
ALTER TABLE "quote_builder"."executions" ADD COLUMN "trace_parent" TEXT;
