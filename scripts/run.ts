import { spawn, type SpawnOptions } from 'node:child_process'
import path from 'node:path'

export const root = path.resolve(import.meta.dirname, '..')
const bin = (name: string) => path.join(root, 'node_modules', '.bin', name)

/** Runs a command from node_modules/.bin (or any path) and resolves with its exit code. */
export function run(
  command: string,
  args: string[],
  options: SpawnOptions & { env?: NodeJS.ProcessEnv } = {},
): Promise<number> {
  const file =
    command.includes('/') || command === 'node' || command === 'npm' ? command : bin(command)
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { stdio: 'inherit', cwd: root, ...options })
    child.once('error', reject)
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)))
  })
}

export async function runOrFail(command: string, args: string[], options: SpawnOptions = {}) {
  const code = await run(command, args, options)
  if (code !== 0) throw new StepFailed(`${command} ${args.join(' ')} exited with ${code}`, code)
}

export class StepFailed extends Error {
  constructor(
    message: string,
    public readonly code: number,
  ) {
    super(message)
  }
}

/**
 * What a script says of its failure: the message alone for an error it expects (`expected`: a
 * step that failed, a service that did not start), the stack for anything else.
 */
export function failureText(
  error: unknown,
  expected: ReadonlyArray<abstract new (...args: never[]) => Error>,
) {
  if (error instanceof Error && expected.some((kind) => error instanceof kind)) return error.message
  return error instanceof Error ? (error.stack ?? error.message) : String(error)
}

/** Stops the local services and exits with `code`; the first call wins, later ones do nothing. */
export function stopOnce(services: { stop(): Promise<void> }) {
  let stopping = false
  return async (code: number) => {
    if (stopping) return
    stopping = true
    await services.stop()
    process.exit(code)
  }
}
