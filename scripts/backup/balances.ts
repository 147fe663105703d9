// After a restore, the same check as `npm run balances` (scripts/balances.ts): that program
// itself, on the restored database, so that the two can never disagree.
import path from 'node:path'
import { run, root } from '../run.ts'
import { storeEnvironment } from './settings.ts'

/** Runs the balances check on the given database and Redis; resolves with its exit code. */
export function checkBalances(settings: {
  DATABASE_URL: string
  REDIS_URL?: string
  REDIS_PREFIX: string
}) {
  // From the sources under tsx, or the bundle beside this one (build/balances.js in the image).
  const fromSources = import.meta.url.endsWith('.ts')
  const [command, args] = fromSources
    ? ['tsx', [path.join(root, 'scripts', 'balances.ts')]]
    : [process.execPath, [path.join(import.meta.dirname, 'balances.js')]]
  const env = {
    PATH: process.env.PATH ?? '',
    ...storeEnvironment(),
    DATABASE_URL: settings.DATABASE_URL,
    ...(settings.REDIS_URL ? { REDIS_URL: settings.REDIS_URL } : {}),
    REDIS_PREFIX: settings.REDIS_PREFIX,
    LOG_LEVEL: 'warn',
  }
  return run(command, args, { env })
}
