import type { Redis } from 'ioredis'
import { removeKeys } from './redis-keys.ts'

// Closes what a test file opened and removes its Redis keys; the database is dropped with the
// run (global-setup.ts).
export async function cleanupTestState() {
  const globals = globalThis as typeof globalThis & {
    __prisma?: { $disconnect: () => Promise<void> }
    __redis?: Redis
    __sqlPool?: { end: () => Promise<void> }
  }
  const prefix = process.env.REDIS_PREFIX
  const redis = globals.__redis
  if (redis && prefix) await removeKeys(redis, prefix)
  await redis?.quit().catch(() => {})
  await globals.__prisma?.$disconnect().catch(() => {})
  await globals.__sqlPool?.end().catch(() => {})
}
