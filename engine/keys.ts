// Every key shares one hash tag, `{prefix}`, so every script runs on one Redis primary even
// under Redis Cluster: a bid touches a user's balance and an auction at once.

export type Keys = ReturnType<typeof createKeys>

export function createKeys(prefix: string) {
  const base = `{${prefix}}:`
  return {
    /** Prefix scripts use to derive per-auction and per-user keys from ids. */
    base,
    auction: (id: string) => `${base}a:${id}`,
    recentBids: (id: string) => `${base}rb:${id}`,
    prebids: (id: string) => `${base}pb:${id}`,
    botCounts: (id: string) => `${base}bc:${id}`,
    /** Everyone who has bid on a live auction (people by id, bots as `bot:<id>`). */
    bidders: (id: string) => `${base}bd:${id}`,
    autoBids: (id: string) => `${base}ab:${id}`,
    /** Set while an auction is being deleted: it is not loaded again meanwhile. */
    deleting: (id: string) => `${base}del:${id}`,
    user: (id: string) => `${base}u:${id}`,
    /** A person's wins of the last 7 days, and a verified phone's (engine/lua/shared/rules.lua). */
    wins: (userId: string) => `${base}w:${userId}`,
    phoneWins: (phone: string) => `${base}w:p:${phone}`,
    /** The win limit's settings the bid scripts read (engine/lua/shared/rules.lua). */
    rules: `${base}rules`,
    upcoming: `${base}upcoming`,
    ending: `${base}ending`,
    outbox: `${base}outbox`,
    references: `${base}refs`,
    lease: `${base}lease`,
    /**
     * A counter raised whenever auction rows in Postgres change in a way pages show (created,
     * edited, deleted, started, finished): pages keep what they read until it moves.
     */
    catalog: `${base}catalog`,
    /**
     * A counter raised whenever an admin saves the site settings: every instance drops what it
     * keeps of them (and the pages showing them) when it moves (app/services/settings-sync.server.ts).
     */
    settings: `${base}settings`,
    /** Auctions holding auto-bid budgets. */
    autoBidIndex: `${base}abidx`,
    /** Written by the outbox before its WAIT, to follow what it read in the replication stream. */
    outboxFence: `${base}outbox-fence`,
    /**
     * A session's cache entry: the user it belongs to, or that it ended
     * (app/services/session.server.ts, docs/decisions/020-session-user-cache.md).
     */
    session: (sessionId: string) => `${base}s:${sessionId}`,
    /**
     * A rate limit's counter or wait (app/services/rate-limit.server.ts): `name` says which,
     * its address or username and, for a counter, its window.
     */
    rateLimit: (name: string) => `${base}rl:${name}`,
    /**
     * The prefix of the sharded pub/sub channels Socket.IO's Redis adapter broadcasts on
     * (server/realtime.ts): channels, not keys, outside the hash tag.
     */
    socketIoChannels: `${prefix}:socket.io`,
  }
}

const keysByPrefix = new Map<string, Keys>()

/** createKeys(prefix), made once per prefix: for code that has the prefix but no engine. */
export function keysOf(prefix: string): Keys {
  let keys = keysByPrefix.get(prefix)
  if (!keys) {
    keys = createKeys(prefix)
    keysByPrefix.set(prefix, keys)
  }
  return keys
}
