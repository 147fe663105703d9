import path from 'node:path'
import { beforeAll } from 'vitest'
import { cpuGroup, CPU_GROUP_ENV, fileGroupName } from '../../scripts/cpu-time.ts'

// Under `npm test`, each test file's process moves into a CPU accounting group of its own under
// its lane's (scripts/cpu-time.ts), before the file's own hooks start a browser or servers, so
// that they are counted with the file. Without `npm test` it does nothing.
const lane = process.env[CPU_GROUP_ENV]
const root = path.resolve(import.meta.dirname, '../..')

beforeAll((suite) => {
  if (!lane) return
  const file = 'filepath' in suite ? suite.filepath : suite.file.filepath
  cpuGroup(lane)
    .sub(fileGroupName(path.relative(root, file)))
    .join()
})
