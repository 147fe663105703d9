import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import tsconfigPaths from 'vite-tsconfig-paths'
import { defineConfig } from 'vitest/config'

// Browser tests: real Chromium (Debian's package, driven by playwright-core) against the
// production build started by tests/e2e/global-setup.ts on its own database and Redis prefix.
//
// Two groups, run side by side by scripts/test.ts (E2E_GROUP), each by its own vitest with its
// own server, database and Redis prefix (the global setup's), so neither sees the other's data:
// - `parallel`: files that use only their own people and auctions, several at a time
//   (E2E_WORKERS, 2 by default: on a loaded 2-core machine 3 were slower and had more
//   timeouts than 2);
// - `alone`: files marked `// Runs alone: <why>` near their top (they change shared settings,
//   count global things, or rely on a per-address limit on their server), one after another.
// Without E2E_GROUP every file runs, one after another (e.g. a single file named on the command
// line).
const MARK = '// Runs alone:'
const dir = path.resolve(import.meta.dirname, 'tests/e2e')
const alone = readdirSync(dir)
  .filter((name) => name.endsWith('.e2e.ts'))
  .filter((name) => readFileSync(path.join(dir, name), 'utf8').slice(0, 2000).includes(MARK))
  .map((name) => `tests/e2e/${name}`)

const group = process.env.E2E_GROUP || undefined
if (group !== undefined && group !== 'parallel' && group !== 'alone') {
  throw new Error(`E2E_GROUP is "${group}": it is "parallel", "alone" or unset`)
}
const workers = Number(process.env.E2E_WORKERS ?? 2)

export default defineConfig({
  plugins: [tsconfigPaths({ projects: ['./tsconfig.json'] })],
  test: {
    include: group === 'alone' ? alone : ['tests/e2e/**/*.e2e.ts'],
    exclude: group === 'parallel' ? alone : [],
    globalSetup: ['tests/e2e/global-setup.ts'],
    setupFiles: ['tests/setup/cpu-group.ts'],
    pool: 'forks',
    fileParallelism: group === 'parallel',
    maxWorkers: group === 'parallel' ? workers : 1,
    minWorkers: 1,
    testTimeout: 90_000,
    hookTimeout: 120_000,
  },
})
