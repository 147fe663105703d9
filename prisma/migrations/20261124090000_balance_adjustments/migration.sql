-- AlterEnum
ALTER TYPE "LedgerReason" ADD VALUE 'admin_adjust';

-- AlterTable
ALTER TABLE "BalanceLedger" ADD COLUMN     "adminId" TEXT,
ADD COLUMN     "note" TEXT;
