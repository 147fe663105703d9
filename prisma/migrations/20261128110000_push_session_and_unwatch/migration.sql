-- A device's Web Push subscription ends with the session it was made in (docs/push.md), and an
-- auction one prebid on can be taken off the watchlist (docs/rules.md#watchlist).

-- AlterTable
ALTER TABLE "PushSubscription" ADD COLUMN     "sessionId" TEXT;

-- AlterTable
ALTER TABLE "Watch" ADD COLUMN     "watching" BOOLEAN NOT NULL DEFAULT true;

-- CreateIndex
CREATE INDEX "PushSubscription_sessionId_idx" ON "PushSubscription"("sessionId");

-- AddForeignKey
ALTER TABLE "PushSubscription" ADD CONSTRAINT "PushSubscription_sessionId_fkey" FOREIGN KEY ("sessionId") REFERENCES "Session"("id") ON DELETE CASCADE ON UPDATE CASCADE;
