// `startProxy` in a process of its own (its own CPU and open-file budget, apart from the
// benchmark's): the targets are the arguments; it sends `{url}` over IPC and stops with its
// parent.
import { startProxy } from './proxy.ts'

const proxy = await startProxy(process.argv.slice(2))
process.send?.({ url: proxy.url })
process.on('disconnect', () => void proxy.close().finally(() => process.exit(0)))
