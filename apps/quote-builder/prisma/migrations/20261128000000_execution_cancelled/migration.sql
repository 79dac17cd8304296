-- An intent cancelled on the hub while handed to solvers: read from the hub once (by a
-- status read or a cancel request), then kept, so it is answered without a chain read and
-- handed to no solver again.
ALTER TYPE "quote_builder"."ExecutionStatus" ADD VALUE IF NOT EXISTS 'cancelled';
