-- Bid-package auctions credit bids (docs/decisions/077-bid-package-orders-credit-bids.md).

-- AlterEnum
ALTER TYPE "LedgerReason" ADD VALUE 'bid_package_win';

-- AlterTable
ALTER TABLE "Auction" ADD COLUMN     "packageBids" INTEGER;

-- AlterTable
ALTER TABLE "Order" ADD COLUMN     "bids" INTEGER NOT NULL DEFAULT 0;

-- Existing bid-package auctions hold what their retail price buys at 15 som a bid, whole bids
-- rounded down, at least one (docs/rules.md#bid-package-auctions).
UPDATE "Auction" SET "packageBids" = GREATEST(1, "retailPrice" / 1500) WHERE "isBidPackage";

-- Orders of bid-package auctions still open to payment are paid and credited the new way, the
-- ones settled before (paid, shipped, delivered, expired, cancelled) stay as they were.
UPDATE "Order" o SET bids = a."packageBids"
  FROM "Auction" a
  WHERE a.id = o."auctionId" AND a."isBidPackage" AND o.status = 'awaiting_payment';

