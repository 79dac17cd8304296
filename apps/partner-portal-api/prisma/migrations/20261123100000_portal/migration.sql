-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "partner_portal_api";

-- CreateEnum
CREATE TYPE "partner_portal_api"."Role" AS ENUM ('owner', 'admin', 'member');

-- CreateTable
CREATE TABLE "partner_portal_api"."users" (
    "id" UUID NOT NULL,
    "email" VARCHAR(254) NOT NULL,
    "password_hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "partner_portal_api"."sessions" (
    "token_hash" CHAR(64) NOT NULL,
    "user_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "sessions_pkey" PRIMARY KEY ("token_hash")
);

-- CreateTable
CREATE TABLE "partner_portal_api"."memberships" (
    "org_id" UUID NOT NULL,
    "org_name" VARCHAR(128) NOT NULL,
    "user_id" UUID NOT NULL,
    "role" "partner_portal_api"."Role" NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "memberships_pkey" PRIMARY KEY ("org_id","user_id")
);

-- CreateTable
CREATE TABLE "partner_portal_api"."invitations" (
    "id" UUID NOT NULL,
    "token_hash" CHAR(64) NOT NULL,
    "org_id" UUID NOT NULL,
    "org_name" VARCHAR(128) NOT NULL,
    "email" VARCHAR(254) NOT NULL,
    "role" "partner_portal_api"."Role" NOT NULL,
    "invited_by" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "accepted_at" TIMESTAMPTZ(3),
    "accepted_by" UUID,

    CONSTRAINT "invitations_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "users_email_key" ON "partner_portal_api"."users"("email");

-- CreateIndex
CREATE INDEX "sessions_user_id_idx" ON "partner_portal_api"."sessions"("user_id");

-- CreateIndex
CREATE INDEX "sessions_expires_at_idx" ON "partner_portal_api"."sessions"("expires_at");

-- CreateIndex
CREATE INDEX "memberships_user_id_idx" ON "partner_portal_api"."memberships"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "invitations_token_hash_key" ON "partner_portal_api"."invitations"("token_hash");

-- CreateIndex
CREATE INDEX "invitations_org_id_idx" ON "partner_portal_api"."invitations"("org_id");

-- AddForeignKey
ALTER TABLE "partner_portal_api"."sessions" ADD CONSTRAINT "sessions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "partner_portal_api"."users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "partner_portal_api"."memberships" ADD CONSTRAINT "memberships_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "partner_portal_api"."users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
