-- Alerts are recorded as pending before they are queued (docs/decisions/064-alerts-recorded-before-queued.md):
-- the job's own fields, so that one Redis lost can be queued again.
ALTER TABLE "AlertDelivery" ADD COLUMN "auctionId" TEXT,
ADD COLUMN "expiresAt" TIMESTAMPTZ(3),
ADD COLUMN "orderId" TEXT;
