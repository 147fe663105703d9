-- The place of each bid in the record of its auction, how it came and the name it was shown
-- under (docs/fair-play.md). Not unique: a bid row is never refused for it, and the check of the
-- record finds a repeated or missing place.

-- AlterTable
ALTER TABLE "Bid" ADD COLUMN "seq" INTEGER,
ADD COLUMN "kind" TEXT,
ADD COLUMN "bidderName" TEXT;

-- CreateIndex
CREATE INDEX "Bid_auctionId_seq_idx" ON "Bid"("auctionId", "seq");

-- The bids placed before the record was kept take their places once, here: in the order of their
-- prices (each bid raised it by one step), with the kind and name they are shown with today.
UPDATE "Bid" AS b SET
  "seq" = n."seq",
  "kind" = CASE
    WHEN b."isPrebid" THEN 'prebid'
    WHEN b."isAuto" THEN 'autobid'
    WHEN b."isBot" AND COALESCE((SELECT s."discloseHouseBids" FROM "Settings" AS s WHERE s."id" = 1), true) THEN 'bot'
    ELSE 'bid'
  END,
  "bidderName" = CASE
    WHEN b."isBot" THEN b."botName"
    ELSE (SELECT u."username" FROM "User" AS u WHERE u."id" = b."userId")
  END
FROM (
  SELECT "id", row_number() OVER (PARTITION BY "auctionId" ORDER BY "amount", "createdAt", "id") AS "seq"
  FROM "Bid"
) AS n
WHERE n."id" = b."id";
