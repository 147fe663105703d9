import { existsSync } from 'node:fs'
import path from 'node:path'
import type { TestProject } from 'vitest/node'
import { ensureServices, type LocalServices } from '../../scripts/services.ts'

declare module 'vitest' {
  export interface ProvidedContext {
    faultsDatabaseUrl: string
    faultsRedisUrl: string
  }
}

const root = path.resolve(import.meta.dirname, '../..')

/** The machine's Postgres and Redis, or local ones started for this run (scripts/services.ts). */
export default async function setup(project: TestProject) {
  if (!existsSync(path.join(root, 'build/server.js'))) {
    throw new Error('No production build: run `npm run build` first (npm test does).')
  }
  let services: LocalServices | undefined
  if (!process.env.DATABASE_URL || !process.env.REDIS_URL) services = await ensureServices()
  project.provide('faultsDatabaseUrl', process.env.DATABASE_URL ?? services!.DATABASE_URL)
  project.provide('faultsRedisUrl', process.env.REDIS_URL ?? services!.REDIS_URL)
  return async () => {
    await services?.stop()
  }
}
