-- Fair-play auctions, the win limit and the limits a bidder sets (docs/rules.md#fair-play-auctions,
-- docs/rules.md#limits-a-bidder-sets).

-- AlterTable
ALTER TABLE "Auction" ADD COLUMN "beginnerOnly" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN "lockAfterMinutes" INTEGER;

-- AlterTable
ALTER TABLE "Settings" ADD COLUMN "winLimit" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "User" ADD COLUMN "dailyBidLimit" INTEGER,
ADD COLUMN "selfExcludedUntil" TIMESTAMPTZ(3),
ADD COLUMN "pendingDailyBidLimit" INTEGER,
ADD COLUMN "pendingSelfExcludedUntil" TIMESTAMPTZ(3),
ADD COLUMN "limitsPendingAt" TIMESTAMPTZ(3),
ADD COLUMN "limitsVersion" INTEGER NOT NULL DEFAULT 0;
