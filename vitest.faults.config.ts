import tsconfigPaths from 'vite-tsconfig-paths'
import { defineConfig } from 'vitest/config'

// Fault-injection tests: the production build under a killed web process, a restarted Redis
// and a Postgres that goes away. Each scenario starts its own servers on its own database and
// Redis prefix; they kill processes and time outages, so they run one at a time.
export default defineConfig({
  plugins: [tsconfigPaths({ projects: ['./tsconfig.json'] })],
  test: {
    include: ['tests/faults/**/*.faults.ts'],
    globalSetup: ['tests/faults/global-setup.ts'],
    setupFiles: ['tests/setup/cpu-group.ts'],
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 180_000,
    // Two instances and nginx starting on a busy machine have taken over a minute.
    hookTimeout: 120_000,
  },
})
