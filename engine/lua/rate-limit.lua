-- One hit against a limit of `limit` hits in any `windowMs` (app/services/rate-limit.server.ts).
-- KEYS: the limit's hits. ARGV: the limit, the window in ms.
-- Returns 0 when the hit is allowed, else the ms to wait.
return take_slot(KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2]), now_ms())
