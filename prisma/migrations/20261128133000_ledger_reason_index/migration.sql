-- The free-bid grants of the day on the admin settings page, counted without reading the whole
-- ledger (docs/decisions/075-one-client-cannot-hurt-everyone.md).

-- CreateIndex
CREATE INDEX "BalanceLedger_reason_createdAt_idx" ON "BalanceLedger"("reason", "createdAt");
