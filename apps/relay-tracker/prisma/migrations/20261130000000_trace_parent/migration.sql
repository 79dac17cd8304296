-- The submit's W3C traceparent, when the platform traces: settlement spans link to it (docs/operators/tracing.md).
ALTER TABLE "relay_tracker"."submissions" ADD COLUMN "trace_parent" TEXT;
