import tsconfigPaths from 'vite-tsconfig-paths'
import { defineConfig } from 'vitest/config'

// Unit and integration tests. Integration tests get their own Postgres database (copied from a
// migrated template) and their own Redis key prefix per test file: tests/setup/.
export default defineConfig({
  plugins: [tsconfigPaths({ projects: ['./tsconfig.json'] })],
  test: {
    include: [
      'app/**/*.test.{ts,tsx}',
      'engine/**/*.test.ts',
      'server/**/*.test.ts',
      'scripts/**/*.test.ts',
      'prisma/**/*.test.ts',
      'tests/integration/**/*.test.ts',
    ],
    globalSetup: ['tests/setup/global-setup.ts'],
    setupFiles: ['tests/setup/cpu-group.ts', 'tests/setup/per-file.ts'],
    pool: 'forks',
    // Most files spend their time waiting on Redis, Postgres and timers: three at a time on two
    // cores (Vitest's default there is one) take about two thirds of the time.
    maxWorkers: 3,
    minWorkers: 1,
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
})
