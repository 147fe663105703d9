import { onTestFailed } from 'vitest'
import type { App } from '../setup/stack.ts'

// What a fault scenario prints: its own lines, and its servers' last lines when a test fails.

export function say(message: string) {
  process.stdout.write(`[faults] ${message}\n`)
}

/** When the running test fails, the last lines each server wrote, for the diagnosis. */
export function showOutputOnFailure(apps: App[]) {
  onTestFailed(() => {
    for (const [n, app] of apps.entries()) say(`server ${n + 1} wrote:\n${app.output()}`)
  })
}
