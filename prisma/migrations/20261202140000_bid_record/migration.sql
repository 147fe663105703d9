-- The place of each bid in the record of its auction, how it came and the name it was shown
-- under (docs/fair-play.md). Not unique: a bid row is never refused for it, and the check of the
-- record finds a repeated or missing place.

-- AlterTable
ALTER TABLE "Bid" ADD COLUMN "seq" INTEGER,
ADD COLUMN "kind" TEXT,
ADD COLUMN "bidderName" TEXT;

-- CreateIndex
CREATE INDEX "Bid_auctionId_seq_idx" ON "Bid"("auctionId", "seq");
