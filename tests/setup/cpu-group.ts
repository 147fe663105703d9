import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll } from 'vitest'
import {
  cpuGroup,
  CPU_GROUP_ENV,
  CPU_NOTES_ENV,
  fileGroupName,
  SERVER_GROUP,
} from '../../scripts/cpu-time.ts'

// Under `npm test`, each test file's process moves into a CPU accounting group of its own under
// its lane's (scripts/cpu-time.ts), before the file's own hooks start a browser or servers, so
// that they are counted with the file. It also notes the file's wall time and what the lane's
// shared server (tests/e2e/global-setup.ts) used meanwhile. Without `npm test` it does nothing.
const lane = process.env[CPU_GROUP_ENV]
const notes = process.env[CPU_NOTES_ENV]
const root = path.resolve(import.meta.dirname, '../..')

let name = ''
let started = 0
let serverAtStart: number | null = null
const server = () =>
  lane && existsSync(path.join(lane, SERVER_GROUP)) ? cpuGroup(lane).sub(SERVER_GROUP) : null

beforeAll((suite) => {
  if (!lane) return
  const file = 'filepath' in suite ? suite.filepath : suite.file.filepath
  name = fileGroupName(path.relative(root, file))
  cpuGroup(lane).sub(name).join()
  started = Date.now()
  serverAtStart = server()?.seconds() ?? null
})

afterAll(() => {
  if (!lane || !notes || !name) return
  const serverNow = server()?.seconds() ?? null
  mkdirSync(notes, { recursive: true })
  writeFileSync(
    path.join(notes, `${name}.json`),
    JSON.stringify({
      wall: (Date.now() - started) / 1000,
      server: serverNow === null || serverAtStart === null ? null : serverNow - serverAtStart,
    }),
  )
})
