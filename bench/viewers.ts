// Child processes of the benchmarks: forked scripts and their messages, their CPU and memory
// as the kernel counts them, and Socket.IO viewers (bench/fanout-client.ts) following auctions.
import { fork, spawnSync, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import type { ClientCommand, ClientReport, Connected } from './fanout-client.ts'

const here = import.meta.dirname

const msPerTick = 1000 / Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout)

/** Kernel-side figures of a process from /proc: resident memory and CPU time used. */
export function processStats(pid: number) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0)
  // Fields after the command name; utime and stime are the 12th and 13th of them, in ticks.
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  const ticks = Number(fields[11]) + Number(fields[12])
  return { rss: rssKb * 1024, cpuMs: ticks * msPerTick }
}

export function forkScript(file: string, args: string[] = []) {
  return fork(path.join(here, file), args, {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
}

/** The next IPC message of a given type from a child, or its exit as an error. */
export function nextMessage<T extends { type?: string }>(child: ChildProcess, type?: string) {
  return new Promise<T>((resolve, reject) => {
    const onMessage = (message: T) => {
      if (type && message.type !== type) return
      child.off('message', onMessage)
      child.off('exit', onExit)
      resolve(message)
    }
    const onExit = (code: number | null) => reject(new Error(`child exited (${code}) early`))
    child.on('message', onMessage)
    child.once('exit', onExit)
  })
}

export async function stopChild(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise((resolve) => child.once('exit', resolve))
  if (child.connected) child.disconnect()
  const force = setTimeout(() => child.kill('SIGKILL'), 5_000)
  await exited
  clearTimeout(force)
}

// --- viewers ---------------------------------------------------------------------------------

export type Viewers = Awaited<ReturnType<typeof connectViewers>>

/**
 * Opens `count` viewers (bench/fanout-client.ts) over child processes of `perProcess` sockets,
 * `concurrency` handshakes at once in all; resolves when each has connected and joined.
 */
export async function connectViewers(
  count: number,
  targets: string[],
  auctions: string[],
  { perProcess = 1250, concurrency = 200 }: { perProcess?: number; concurrency?: number } = {},
) {
  const processes = Math.ceil(count / perProcess)
  const children = Array.from({ length: processes }, () => forkScript('fanout-client.ts'))
  const began = Date.now()
  const answers = await Promise.all(
    children.map((child, i) => {
      const first = i * perProcess
      const command: ClientCommand = {
        type: 'connect',
        targets,
        auctions,
        first,
        count: Math.min(perProcess, count - first),
        // Handshakes in flight at once over all processes, shared out.
        concurrency: Math.max(1, Math.round(concurrency / processes)),
      }
      child.send(command)
      return nextMessage<Connected>(child, 'connected')
    }),
  )
  const rooms = new Map<string, number>()
  const errors: Record<string, number> = {}
  for (const answer of answers) {
    for (const [id, n] of Object.entries(answer.rooms)) rooms.set(id, (rooms.get(id) ?? 0) + n)
    for (const [error, n] of Object.entries(answer.errors)) errors[error] = (errors[error] ?? 0) + n
  }
  return {
    children,
    joined: answers.reduce((sum, a) => sum + a.joined, 0),
    connectMs: Date.now() - began,
    rooms,
    errors,
    async reports() {
      return Promise.all(
        children.map((child) => {
          child.send({ type: 'report' } satisfies ClientCommand)
          return nextMessage<ClientReport>(child, 'report')
        }),
      )
    },
    cpuMs: () => children.reduce((sum, child) => sum + processStats(child.pid!).cpuMs, 0),
    async close() {
      for (const child of children)
        if (child.connected) child.send({ type: 'close' } satisfies ClientCommand)
      await Promise.all(children.map(stopChild))
    },
  }
}
