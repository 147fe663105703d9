-- A person changed their limits (docs/rules.md#limits-a-bidder-sets): Redis keeps the newer copy,
-- so a load that read Postgres before the change cannot put the older one back.
-- KEYS: user. ARGV: limits (shared/rules.lua's `lim`). Returns 1 when written, 0 when older.
return set_limits(KEYS[1], ARGV[1])
