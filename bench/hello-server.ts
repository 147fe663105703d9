// The reference server: a bare Express 4 hello-world, answering every method and path, in a
// process of its own. It tells its parent (site.ts startHello) the port it listens on.
import express from 'express'

const app = express()
app.all('*', (_req, res) => {
  res.send('Hello World!')
})
const server = app.listen(0, '127.0.0.1', () => {
  const address = server.address()
  process.send?.({ port: typeof address === 'object' && address ? address.port : 0 })
})
process.on('SIGTERM', () => server.close(() => process.exit(0)))
