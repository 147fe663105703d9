// Bundles server.ts (and the app modules it wires) into build/server.js for production, and the
// operators' tools into build/admin-create.js, build/balances.js, build/telegram-webhook.js,
// build/backup.js and build/restore.js (the image has no sources: scripts/docker-entrypoint.sh
// runs them); npm packages stay external and are loaded from node_modules. The engine's Lua
// scripts are read at run time from the nearest lua/ folder beside or above the code that runs
// them (engine/lua-runner.ts): they are copied to build/lua/, beside build/server.js and above the
// app's server build (build/server/, made by `remix vite:build` before this). Then stores the
// browser's assets compressed (scripts/precompress.ts).
import { cpSync, rmSync } from 'node:fs'
import path from 'node:path'
import { build } from 'esbuild'
import { precompress } from './precompress.ts'
import { root } from './run.ts'

await build({
  entryPoints: {
    server: 'server.ts',
    'admin-create': 'scripts/admin-create.ts',
    balances: 'scripts/balances.ts',
    'telegram-webhook': 'scripts/telegram-webhook.ts',
    backup: 'scripts/backup.ts',
    restore: 'scripts/restore.ts',
  },
  absWorkingDir: root,
  outdir: 'build',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
  alias: { '~': './app' },
})
process.stdout.write(
  'built build/server.js and the tools build/admin-create.js, balances.js, telegram-webhook.js, backup.js, restore.js\n',
)
rmSync(path.join(root, 'build/lua'), { recursive: true, force: true })
cpSync(path.join(root, 'engine/lua'), path.join(root, 'build/lua'), { recursive: true })
process.stdout.write('copied the engine scripts to build/lua\n')
const compressed = precompress(path.join(root, 'build/client/assets'))
process.stdout.write(`compressed ${compressed} browser assets (.br, .gz)\n`)
