// The settings a backup and a restore read: where Postgres, Redis (and the install's key prefix)
// and the product images are. They are validated as a start validates them
// (app/utils/env.server.ts), but without what only serving needs (the session secret, the site's
// address, the payment provider): `docker run --rm … restore` on a new volume is given none.
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { parseEnv, type Env } from '../../app/utils/env.server.ts'
import { imageSettings } from '../../app/utils/env-fields.server.ts'
import { root } from '../run.ts'

const NAMES = [
  'DATABASE_URL',
  'REDIS_URL',
  'REDIS_SENTINELS',
  'REDIS_MASTER_NAME',
  'REDIS_PREFIX',
  ...Object.keys(imageSettings),
]

/** The environment's values of those settings (also given to `balances` after a restore). */
export function storeEnvironment(source: NodeJS.ProcessEnv = process.env) {
  const picked: Record<string, string> = {}
  for (const name of NAMES) {
    const value = source[name]
    if (value !== undefined) picked[name] = value
  }
  // Development's rules, which ask for no secret; the settings above are checked the same way.
  return { ...picked, NODE_ENV: 'development' as const }
}

export function storeSettings(source: NodeJS.ProcessEnv = process.env): Env {
  return parseEnv(storeEnvironment(source))
}

/** This version of the app (package.json), named in a backup's header. */
export function appVersion(): string {
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    version?: string
  }
  return pkg.version ?? 'unknown'
}
