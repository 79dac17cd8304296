-- A route's own enforcement mode (spec: modes per route), overriding its family's; a route
-- without a row follows its family. Carried by the key set from its v3.
CREATE TABLE "key_registry"."route_modes" (
    "route" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_by" TEXT NOT NULL,
    CONSTRAINT "route_modes_pkey" PRIMARY KEY ("route")
);
