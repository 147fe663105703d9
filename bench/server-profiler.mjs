// Preloaded into a server by `bench:fanout --profile DIR` (NODE_OPTIONS=--import, since
// --cpu-prof may not stand in NODE_OPTIONS): SIGUSR2 starts V8's CPU profiler, the next SIGUSR2
// writes what it sampled to $BENCH_PROFILE_DIR/server-<pid>-<n>.cpuprofile, so a profile covers
// exactly the span the benchmark measures. Plain JavaScript: the server runs without tsx.
import { writeFileSync } from 'node:fs'
import { Session } from 'node:inspector'
import path from 'node:path'
import process from 'node:process'

const dir = process.env.BENCH_PROFILE_DIR ?? '.'
const session = new Session()
session.connect()
let running = false
let written = 0

process.on('SIGUSR2', () => {
  if (!running) {
    running = true
    session.post('Profiler.enable', () => session.post('Profiler.start'))
    return
  }
  session.post('Profiler.stop', (error, result) => {
    running = false
    if (error) return
    const file = path.join(dir, `server-${process.pid}-${++written}.cpuprofile`)
    writeFileSync(file, JSON.stringify(result.profile))
  })
})
