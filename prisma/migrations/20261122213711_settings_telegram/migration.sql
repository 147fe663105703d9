-- AlterTable
ALTER TABLE "Settings" ADD COLUMN "contactTelegram" TEXT NOT NULL DEFAULT '';
