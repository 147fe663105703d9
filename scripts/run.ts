import { spawn, type ChildProcess, type SpawnOptions, type StdioOptions } from 'node:child_process'
import path from 'node:path'
import { createInterface } from 'node:readline'
import type { Readable } from 'node:stream'

export const root = path.resolve(import.meta.dirname, '..')
const bin = (name: string) => path.join(root, 'node_modules', '.bin', name)

export type RunOptions = SpawnOptions & {
  env?: NodeJS.ProcessEnv
  /** Each line the command writes is printed after this label (commands running side by side). */
  prefix?: string
  /** Called with each line the command writes (only with `prefix`). */
  onLine?: (line: string) => void
}

/** Copies `stream` line by line to `out`, each line after `prefix`. */
function relayLines(
  stream: Readable | null,
  out: NodeJS.WriteStream,
  prefix: string,
  onLine?: (line: string) => void,
) {
  if (!stream) return Promise.resolve()
  const lines = createInterface({ input: stream, crlfDelay: Infinity })
  lines.on('line', (line) => {
    out.write(`${prefix} ${line}\n`)
    onLine?.(line)
  })
  return new Promise<void>((resolve) => lines.once('close', resolve))
}

/** The file to run for `command`: a path or node and npm as they are, else node_modules/.bin's. */
export function commandFile(command: string) {
  return command.includes('/') || command === 'node' || command === 'npm' ? command : bin(command)
}

/** Runs a command from node_modules/.bin (or any path) and resolves with its exit code. */
export function run(command: string, args: string[], options: RunOptions = {}): Promise<number> {
  const file = commandFile(command)
  const { prefix, onLine, ...spawnOptions } = options
  const stdio: StdioOptions = prefix === undefined ? 'inherit' : ['ignore', 'pipe', 'pipe']
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(file, args, { stdio, cwd: root, ...spawnOptions })
    const relayed =
      prefix === undefined
        ? Promise.resolve()
        : Promise.all([
            relayLines(child.stdout, process.stdout, prefix, onLine),
            relayLines(child.stderr, process.stderr, prefix, onLine),
          ])
    child.once('error', reject)
    child.once('exit', (code, signal) => {
      // A process the command left behind may hold its output open: its last lines are waited
      // for a little, not for ever.
      const settled = new Promise((done) => setTimeout(done, 5_000).unref())
      void Promise.race([relayed, settled]).then(() => {
        child.stdout?.destroy()
        child.stderr?.destroy()
        resolve(code ?? (signal ? 1 : 0))
      })
    })
  })
}

export async function runOrFail(command: string, args: string[], options: RunOptions = {}) {
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
