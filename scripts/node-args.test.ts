import { readFileSync } from 'node:fs'
import path from 'node:path'
import { expect, test } from 'vitest'
import { SERVER_NODE_ARGS } from './node-args.ts'

const root = path.resolve(import.meta.dirname, '..')
const read = (file: string) => readFileSync(path.join(root, file), 'utf8')
const server = `node ${SERVER_NODE_ARGS.join(' ')} build/server.js`

test('every start of the production server passes the same node options', () => {
  const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts
  expect(scripts.start).toBe(`NODE_ENV=production ${server}`)
  expect(read('scripts/docker-entrypoint.sh')).toContain(`\nexec ${server}\n`)
  // The rest start it from TypeScript with the shared list.
  for (const file of [
    'scripts/start.ts',
    'scripts/serve.ts',
    'tests/setup/stack-apps.ts',
    'tests/e2e/global-setup.ts',
  ])
    expect(read(file)).toMatch(/\[\.\.\.SERVER_NODE_ARGS, (?:\.\.\.[^,]+, )?'build\/server\.js'\]/)
})
