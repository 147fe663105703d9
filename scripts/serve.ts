// The container's start (scripts/docker-entrypoint.sh) with EMBEDDED_SERVICES=1: Postgres and
// Redis run inside the same container (data in DATA_DIR, a volume), the database is migrated,
// then the server runs. SIGTERM stops the server first, then the services.
import { spawn } from 'node:child_process'
import { ensureServices, ServiceError } from './services.ts'
import { failureText, root, runOrFail, stopOnce, StepFailed } from './run.ts'
import { SERVER_NODE_ARGS } from './node-args.ts'

async function main() {
  if (process.env.DATABASE_URL || process.env.REDIS_URL) {
    throw new ServiceError(
      'EMBEDDED_SERVICES=1 runs Postgres and Redis inside the container: leave DATABASE_URL and REDIS_URL unset, or set EMBEDDED_SERVICES=0 to use them',
    )
  }
  const services = await ensureServices()
  const env = { ...process.env, DATABASE_URL: services.DATABASE_URL, REDIS_URL: services.REDIS_URL }
  const running: { server?: ReturnType<typeof spawn> } = {}
  const stop = stopOnce(services)
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      const server = running.server
      if (server && server.exitCode === null) server.kill(signal)
      else void stop(0)
    })
  }
  try {
    await runOrFail('prisma', ['migrate', 'deploy'], { env })
  } catch (error) {
    await services.stop()
    throw error
  }
  const server = spawn(process.execPath, [...SERVER_NODE_ARGS, 'build/server.js'], {
    cwd: root,
    env,
    stdio: 'inherit',
  })
  running.server = server
  server.once('exit', (code, signal) => void stop(code ?? (signal === 'SIGTERM' ? 0 : 1)))
}

main().catch((error: unknown) => {
  process.stderr.write(`[serve] ${failureText(error, [ServiceError, StepFailed])}\n`)
  process.exit(1)
})
