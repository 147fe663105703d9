-- The watchlist, alert choices and what became of each alert (docs/rules.md#watchlist-and-alerts).
ALTER TABLE "User" ADD COLUMN "language" TEXT;

CREATE TABLE "Watch" (
    "userId" TEXT NOT NULL,
    "auctionId" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Watch_pkey" PRIMARY KEY ("userId","auctionId")
);
CREATE INDEX "Watch_auctionId_idx" ON "Watch"("auctionId");
ALTER TABLE "Watch" ADD CONSTRAINT "Watch_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "Watch" ADD CONSTRAINT "Watch_auctionId_fkey" FOREIGN KEY ("auctionId") REFERENCES "Auction"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "AlertOff" (
    "userId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "channel" TEXT NOT NULL,
    CONSTRAINT "AlertOff_pkey" PRIMARY KEY ("userId","kind","channel")
);
ALTER TABLE "AlertOff" ADD CONSTRAINT "AlertOff_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "AlertSettings" (
    "userId" TEXT NOT NULL,
    "quietFrom" INTEGER,
    "quietTo" INTEGER,
    CONSTRAINT "AlertSettings_pkey" PRIMARY KEY ("userId")
);
ALTER TABLE "AlertSettings" ADD CONSTRAINT "AlertSettings_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "AlertDelivery" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "channel" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 1,
    "error" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "AlertDelivery_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "AlertDelivery_userId_channel_key_key" ON "AlertDelivery"("userId", "channel", "key");
CREATE INDEX "AlertDelivery_status_createdAt_idx" ON "AlertDelivery"("status", "createdAt");
ALTER TABLE "AlertDelivery" ADD CONSTRAINT "AlertDelivery_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;
