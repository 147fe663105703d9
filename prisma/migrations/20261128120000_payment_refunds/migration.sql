-- Refunds Freedom Pay reports take back the bids of a bid package, and paid payments are asked
-- again whether they were refunded (docs/decisions/074-refunds-freedom-pay-reports.md).

-- AlterEnum
ALTER TYPE "LedgerReason" ADD VALUE 'payment_refund';

-- AlterTable
ALTER TABLE "Payment" ADD COLUMN     "bidsOwed" INTEGER,
ADD COLUMN     "bidsTakenBack" INTEGER,
ADD COLUMN     "refundCheckAt" TIMESTAMPTZ(3),
ADD COLUMN     "refundChecks" INTEGER NOT NULL DEFAULT 0;

-- CreateIndex
CREATE INDEX "Payment_status_paidAt_idx" ON "Payment"("status", "paidAt");
