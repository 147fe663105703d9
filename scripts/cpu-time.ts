// What the test suite costs in CPU: user + system seconds of every process a step started
// (Node, Chromium, Postgres, Redis, nginx, podman's builds), from Linux's CPU accounting groups.
// `npm test` (scripts/test.ts) puts itself in a group of its own and each lane in a group under
// it; each test file's process moves itself into a group under its lane's
// (tests/setup/cpu-group.ts), so what it starts (a browser, servers) is counted with it. A group
// counts its processes' CPU for as long as they live, whoever their parent is by then; a
// process that leaves for another group (a container's, made by podman) is no longer counted.
// Where no accounting group can be made (not root, no cgroup file system), nothing is measured
// and the suite says so.
import { mkdirSync, readdirSync, readFileSync, rmdirSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'

/** The environment variable that names the group a test file's process joins under. */
export const CPU_GROUP_ENV = 'TEST_CPU_GROUP'
/** The environment variable that names the folder where each test file notes its wall time. */
export const CPU_NOTES_ENV = 'TEST_CPU_NOTES'
/** The group, under a lane's, of the server the lane's test files share. */
export const SERVER_GROUP = 'server'

/**
 * A hierarchy of CPU accounting groups: where it is mounted, how it tells a group's CPU time, and
 * which line of /proc/self/cgroup names the group a process is in.
 */
type Hierarchy = {
  root: string
  usageSeconds: (dir: string) => number
  isOurs: (controllers: string) => boolean
}

const HIERARCHIES: Hierarchy[] = [
  // cgroup v1's cpuacct controller: nanoseconds.
  {
    root: '/sys/fs/cgroup/cpuacct',
    usageSeconds: (dir) => Number(readFileSync(path.join(dir, 'cpuacct.usage'), 'utf8')) / 1e9,
    isOurs: (controllers) => controllers.split(',').includes('cpuacct'),
  },
  // cgroup v2: cpu.stat's usage_usec.
  {
    root: '/sys/fs/cgroup',
    usageSeconds: (dir) => {
      const line = readFileSync(path.join(dir, 'cpu.stat'), 'utf8')
        .split('\n')
        .find((l) => l.startsWith('usage_usec '))
      if (!line) throw new Error('no usage_usec in cpu.stat')
      return Number(line.split(' ')[1]) / 1e6
    },
    isOurs: (controllers) => controllers === '',
  },
]

/** The hierarchy a group `dir` belongs to. */
function hierarchyOf(dir: string): Hierarchy | undefined {
  return HIERARCHIES.find((h) => dir.startsWith(`${h.root}/`))
}

export type CpuGroup = {
  /** The group's folder, or null when CPU time is not measured here. */
  dir: string | null
  /** CPU seconds of every process that has been in the group or under it; null when unmeasured. */
  seconds(): number | null
  /** A group under this one. */
  sub(name: string): CpuGroup
  /** Moves a running process (this one by default) into the group; false when it could not. */
  join(pid?: number): boolean
  /** The groups directly under this one with their CPU seconds. */
  children(): Array<{ name: string; seconds: number }>
  /** Removes the group and those under it (only empty groups can go; the rest stay). */
  remove(): void
}

const UNMEASURED: CpuGroup = {
  dir: null,
  seconds: () => null,
  sub: () => UNMEASURED,
  join: () => false,
  children: () => [],
  remove: () => {},
}

/** The group at `dir` (made if missing), or the unmeasured group when it cannot be made. */
export function cpuGroup(dir: string | null | undefined): CpuGroup {
  const hierarchy = dir ? hierarchyOf(dir) : undefined
  if (!dir || !hierarchy) return UNMEASURED
  try {
    mkdirSync(dir, { recursive: true })
    hierarchy.usageSeconds(dir)
  } catch {
    return UNMEASURED
  }
  const group: CpuGroup = {
    dir,
    seconds: () => {
      try {
        return hierarchy.usageSeconds(dir)
      } catch {
        return null
      }
    },
    sub: (name) => cpuGroup(path.join(dir, name)),
    join: (pid = process.pid) => {
      try {
        writeFileSync(path.join(dir, 'cgroup.procs'), String(pid))
        return true
      } catch {
        return false
      }
    },
    children: () =>
      readdirSync(dir)
        .filter((name) => statSync(path.join(dir, name)).isDirectory())
        .map((name) => ({ name, seconds: hierarchy.usageSeconds(path.join(dir, name)) })),
    remove: () => removeTree(dir),
  }
  return group
}

function removeTree(dir: string) {
  for (const name of readdirSync(dir)) {
    const below = path.join(dir, name)
    if (statSync(below).isDirectory()) removeTree(below)
  }
  try {
    rmdirSync(dir)
  } catch {
    // A process is still in it: the group stays (an empty one is harmless).
  }
}

/**
 * A new top group for this run, with this process in it, in the first hierarchy that lets us
 * make a group and move into it; the unmeasured group when none does.
 */
export function runGroup(name: string): CpuGroup {
  for (const hierarchy of HIERARCHIES) {
    // Under the group this process is in (a test file's own, when a test makes one).
    const group = cpuGroup(path.join(groupOfThisProcess(hierarchy), name))
    if (group.dir === null) continue
    const before = groupOfThisProcess(hierarchy)
    const leave = () => {
      try {
        writeFileSync(path.join(before, 'cgroup.procs'), String(process.pid))
      } catch {
        // Left in the group, which then stays.
      }
    }
    if (group.join() && group.seconds() !== null) {
      return {
        ...group,
        remove: () => {
          leave()
          group.remove()
        },
      }
    }
    leave()
    group.remove()
  }
  return UNMEASURED
}

/** The folder of the group this process is in, in `hierarchy` (its root when it cannot tell). */
function groupOfThisProcess(hierarchy: Hierarchy): string {
  try {
    for (const line of readFileSync('/proc/self/cgroup', 'utf8').split('\n')) {
      const [, controllers = '', at = ''] = line.split(':')
      if (at && hierarchy.isOurs(controllers)) return path.join(hierarchy.root, at)
    }
  } catch {
    // Not Linux's /proc.
  }
  return hierarchy.root
}

/**
 * A command line that first moves its own process into `group`, then runs `file` with `args`:
 * everything it starts is counted there from its first instruction.
 */
export function inGroup(group: CpuGroup, file: string, args: string[]): [string, string[]] {
  if (!group.dir) return [file, args]
  const procs = path.join(group.dir, 'cgroup.procs')
  return ['/bin/sh', ['-c', 'echo $$ > "$0" 2>/dev/null; exec "$@"', procs, file, ...args]]
}

/**
 * The machine's busy CPU seconds since it started (every process's, the services' already
 * running before the suite included): /proc/stat, all but idle, waiting for disks and
 * time taken by the machine's host.
 */
export function machineBusySeconds(): number | null {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1)
    const ticks = fields.map(Number)
    const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0] = ticks
    // USER_HZ is 100 on every Linux Node runs on.
    return (user + nice + system + irq + softirq) / 100
  } catch {
    return null
  }
}

/** A test file's group name: its path from the project's root with `/` as `~`. */
export function fileGroupName(relativePath: string): string {
  return relativePath.split(path.sep).join('~')
}

/** The file a group name stands for. */
export function groupFileName(name: string): string {
  return name.split('~').join('/')
}
