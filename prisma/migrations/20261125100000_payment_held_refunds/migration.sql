-- AlterEnum
ALTER TYPE "PaymentStatus" ADD VALUE 'held';
ALTER TYPE "PaymentStatus" ADD VALUE 'refunded';

-- AlterTable
ALTER TABLE "Payment" ADD COLUMN     "refundId" TEXT,
ADD COLUMN     "refundReason" TEXT,
ADD COLUMN     "refundedAt" TIMESTAMPTZ(3),
ADD COLUMN     "refundedBy" TEXT;
