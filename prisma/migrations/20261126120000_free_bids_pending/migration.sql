-- An account whose free bids are not yet known to be given (docs/decisions/043-free-bids-owed.md).
ALTER TABLE "User" ADD COLUMN "freeBidsPending" BOOLEAN NOT NULL DEFAULT false;
