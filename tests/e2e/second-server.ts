import { afterAll, inject } from 'vitest'
import { deleteKeys, startApp } from '../setup/stack.ts'

/**
 * A second production server on the e2e database, with a Redis prefix of its own, for settings
 * the e2e server does not have (a proxy in front, the limits at their production size). Called
 * in a describe block, which stops it and removes its keys at the end; returns the start, which
 * answers the server's URL.
 */
export function secondServer(label: string) {
  let stop: (() => Promise<void>) | undefined
  const prefix = `${label}${Date.now().toString(36)}`
  afterAll(async () => {
    await stop?.()
    await deleteKeys(inject('e2eRedisUrl'), prefix)
  })
  return async (env: Record<string, string>) => {
    const app = await startApp({
      databaseUrl: inject('e2eDatabaseUrl'),
      redisUrl: inject('e2eRedisUrl'),
      prefix,
      label,
      env: { ENGINE_WORKERS: '0', ...env },
    })
    stop = app.stop
    return app.url
  }
}
