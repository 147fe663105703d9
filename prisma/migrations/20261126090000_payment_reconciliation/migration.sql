-- The provider's id of a checkout (Freedom Pay's pg_payment_id, needed to ask its status) and
-- the reconciler's back-off schedule per pending payment.
ALTER TABLE "Payment" ADD COLUMN     "providerPaymentId" TEXT,
ADD COLUMN     "nextCheckAt" TIMESTAMPTZ(3),
ADD COLUMN     "checkCount" INTEGER NOT NULL DEFAULT 0;

-- CreateIndex
CREATE INDEX "Payment_status_nextCheckAt_idx" ON "Payment"("status", "nextCheckAt");
