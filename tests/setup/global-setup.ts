import { execFileSync } from 'node:child_process'
import path from 'node:path'
import type { TestProject } from 'vitest/node'
import { ensureServices, type LocalServices } from '../../scripts/services.ts'
import { createDatabase, databaseUrl, dropDatabases } from './databases.ts'

declare module 'vitest' {
  export interface ProvidedContext {
    databaseBaseUrl: string
    templateDatabase: string
    redisUrl: string
    runId: string
  }
}

const root = path.resolve(import.meta.dirname, '../..')

/**
 * Once per run: a migrated template database that every test file copies, so files never
 * share rows, and a run id that names this run's databases and Redis key prefixes.
 */
export default async function setup(project: TestProject) {
  let services: LocalServices | undefined
  if (!process.env.DATABASE_URL || !process.env.REDIS_URL) services = await ensureServices()
  const baseUrl = process.env.DATABASE_URL ?? services!.DATABASE_URL
  const redisUrl = process.env.REDIS_URL ?? services!.REDIS_URL
  const runId = `${Date.now().toString(36)}${process.pid.toString(36)}`
  const template = `pa_test_${runId}_template`
  await createDatabase(baseUrl, template)
  execFileSync(path.join(root, 'node_modules/.bin/prisma'), ['migrate', 'deploy'], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: databaseUrl(baseUrl, template) },
    stdio: 'pipe',
  })
  project.provide('databaseBaseUrl', baseUrl)
  project.provide('templateDatabase', template)
  project.provide('redisUrl', redisUrl)
  project.provide('runId', runId)

  return async () => {
    await dropDatabases(baseUrl, `pa_test_${runId}_%`)
    await services?.stop()
  }
}
