import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { expect, test } from 'vitest'
import { cpuGroup, inGroup, runGroup } from './cpu-time.ts'

// The suite's CPU accounting (scripts/cpu-time.ts): a command run in a group is counted there
// with everything it starts; where no group can be made, nothing is measured and nothing breaks.

test('a command and what it starts are counted in its group', () => {
  const run = runGroup(`cpu-time-test-${process.pid}`)
  if (run.dir === null) {
    // Not root, or no cgroup file system: the suite reports CPU as not measured.
    expect(run.seconds()).toBeNull()
    return
  }
  try {
    const group = run.sub('busy')
    // A shell that starts a child which spins until it has used 0.3 s of CPU.
    const spin = `while (process.cpuUsage().user < 300000);`
    const [file, args] = inGroup(group, '/bin/sh', ['-c', `node -e "${spin}"`])
    expect(spawnSync(file, args).status).toBe(0)
    expect(group.seconds()).toBeGreaterThan(0.3)
    expect(run.children().map((child) => child.name)).toEqual(['busy'])
    expect(run.seconds()!).toBeGreaterThanOrEqual(group.seconds()!)
  } finally {
    run.remove()
  }
  expect(existsSync(run.dir)).toBe(false)
})

test('a group outside any accounting hierarchy measures nothing', () => {
  const group = cpuGroup('/tmp/not-a-cgroup')
  expect(group.dir).toBeNull()
  expect(group.seconds()).toBeNull()
  expect(inGroup(group, 'npm', ['test'])).toEqual(['npm', ['test']])
})
