-- Lot numbers (PA-000042) come from a sequence, so two admins creating at once never pick the
-- same number and test or imported display ids of other shapes cannot stall the numbering.
CREATE SEQUENCE "auction_display_number" AS INTEGER MINVALUE 1;

SELECT setval('"auction_display_number"',
  GREATEST(1, COALESCE((SELECT MAX(substring("displayId" from 4)::INTEGER)
    FROM "Auction" WHERE "displayId" ~ '^PA-[0-9]{6,9}$'), 0)),
  EXISTS (SELECT 1 FROM "Auction" WHERE "displayId" ~ '^PA-[0-9]{6,9}$'));
