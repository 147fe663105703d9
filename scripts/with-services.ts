// With EMBEDDED_SERVICES=1, a tool that needs the install's Postgres and Redis while the install
// itself is not running (a restore onto a new volume: scripts/docker-entrypoint.sh) runs between
// their start and their stop, as scripts/serve.ts runs the server:
//   node --import tsx scripts/with-services.ts build/restore.js [ARGS]
// Its standard input and output are the tool's; it exits with the tool's exit code.
import { spawn } from 'node:child_process'
import { ensureServices, ServiceError } from './services.ts'
import { failureText, root, stopOnce, StepFailed } from './run.ts'

async function main() {
  const [script, ...args] = process.argv.slice(2)
  if (!script) throw new ServiceError('usage: with-services.ts SCRIPT [ARGS]')
  if (process.env.DATABASE_URL || process.env.REDIS_URL) {
    throw new ServiceError(
      'EMBEDDED_SERVICES=1 runs Postgres and Redis inside the container: leave DATABASE_URL and REDIS_URL unset, or set EMBEDDED_SERVICES=0 to use them',
    )
  }
  const services = await ensureServices()
  const stop = stopOnce(services)
  const tool = spawn(process.execPath, [script, ...args], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: services.DATABASE_URL, REDIS_URL: services.REDIS_URL },
    stdio: 'inherit',
  })
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      if (tool.exitCode === null) tool.kill(signal)
    })
  }
  tool.once('error', () => void stop(1))
  tool.once('exit', (code, signal) => void stop(code ?? (signal ? 1 : 0)))
}

main().catch((error: unknown) => {
  process.stderr.write(`[services] ${failureText(error, [ServiceError, StepFailed])}\n`)
  process.exit(1)
})
