// Counts the SQL statements a server runs, on the wire: the server reaches Postgres through a
// proxy that reads the frontend protocol (simple Query; Parse/Bind/Execute) of every connection.
// Exact and immediate, unlike pg_stat_database, whose counters backends flush up to 10 s late.
import { startProxy } from './proxy.ts'

const SSL_REQUEST = 80877103
const GSSENC_REQUEST = 80877104

type Connection = {
  started: boolean
  inTransaction: boolean
  pending: Buffer
  unnamed: string
  named: Map<string, string>
  bound: string
}

/** A statement as a short label: no schema prefix, no column list, one line. */
export function statementLabel(sql: string): string {
  return sql
    .replace(/"public"\./g, '')
    .replace(/\s+/g, ' ')
    .replace(/^SELECT .*? FROM /i, 'SELECT … FROM ')
    .trim()
    .slice(0, 110)
}

export type StatementCounts = Map<string, number>

/** Statements by label: on their own, and inside explicit transactions (BEGIN … COMMIT). */
export type StatementSnapshot = { alone: StatementCounts; inTransactions: StatementCounts }

export async function startStatementCounter(databaseUrl: string) {
  const alone: StatementCounts = new Map()
  const inTransactions: StatementCounts = new Map()
  const connections = new Map<number, Connection>()
  const count = (state: Connection, sql: string) => {
    const label = statementLabel(sql)
    if (/^(BEGIN|START TRANSACTION)\b/i.test(label)) state.inTransaction = true
    const counts = state.inTransaction ? inTransactions : alone
    counts.set(label, (counts.get(label) ?? 0) + 1)
    if (/^(COMMIT|ROLLBACK|END)\b/i.test(label)) state.inTransaction = false
  }
  const cString = (buffer: Buffer, at: number) => {
    const end = buffer.indexOf(0, at)
    return { text: buffer.toString('utf8', at, end), next: end + 1 }
  }
  const read = (state: Connection, type: number, body: Buffer) => {
    if (type === 0x51 /* Q */) count(state, cString(body, 0).text)
    else if (type === 0x50 /* P */) {
      const name = cString(body, 0)
      const sql = cString(body, name.next).text
      if (name.text) state.named.set(name.text, sql)
      else state.unnamed = sql
    } else if (type === 0x42 /* B */) {
      const statement = cString(body, cString(body, 0).next).text
      state.bound = statement ? (state.named.get(statement) ?? statement) : state.unnamed
    } else if (type === 0x45 /* E */) count(state, state.bound)
  }
  const proxy = await startProxy([databaseUrl], {
    tap: (chunk, id) => {
      let state = connections.get(id)
      if (!state) {
        state = {
          started: false,
          inTransaction: false,
          pending: chunk,
          unnamed: '',
          named: new Map(),
          bound: '',
        }
        connections.set(id, state)
      } else state.pending = state.pending.length ? Buffer.concat([state.pending, chunk]) : chunk
      let buffer = state.pending
      for (;;) {
        if (!state.started) {
          // The startup message (or an SSL/GSS request before it) has a length but no type.
          if (buffer.length < 8) break
          const length = buffer.readInt32BE(0)
          if (buffer.length < length) break
          const code = buffer.readInt32BE(4)
          if (code !== SSL_REQUEST && code !== GSSENC_REQUEST) state.started = true
          buffer = buffer.subarray(length)
          continue
        }
        if (buffer.length < 5) break
        const length = buffer.readInt32BE(1)
        if (buffer.length < 1 + length) break
        read(state, buffer[0]!, buffer.subarray(5, 1 + length))
        buffer = buffer.subarray(1 + length)
      }
      state.pending = buffer
    },
    closed: (id) => connections.delete(id),
  })
  const url = new URL(databaseUrl)
  url.port = new URL(proxy.url).port
  url.hostname = '127.0.0.1'
  return {
    /** The database's URL through the counter. */
    databaseUrl: url.toString(),
    snapshot: (): StatementSnapshot => ({
      alone: new Map(alone),
      inTransactions: new Map(inTransactions),
    }),
    close: proxy.close,
  }
}

function between(before: StatementCounts, after: StatementCounts) {
  const rows: Array<{ label: string; count: number }> = []
  for (const [label, total] of after) {
    const count = total - (before.get(label) ?? 0)
    if (count > 0) rows.push({ label, count })
  }
  rows.sort((a, b) => b.count - a.count)
  return { total: rows.reduce((sum, row) => sum + row.count, 0), rows }
}

/**
 * Statements run between two snapshots, most frequent first: those on their own (what requests
 * ask, one by one) and those inside transactions (the outbox writing batches, for one).
 */
export function statementsBetween(before: StatementSnapshot, after: StatementSnapshot) {
  const inTransactions = between(before.inTransactions, after.inTransactions)
  return {
    ...between(before.alone, after.alone),
    inTransactions: {
      ...inTransactions,
      transactions: inTransactions.rows.find((row) => /^BEGIN/i.test(row.label))?.count ?? 0,
    },
  }
}

/** Lines of `statementsBetween` rows as counts per unit (per page, per bid), the top ones. */
export function statementLines(
  rows: Array<{ label: string; count: number }>,
  units: number,
  top = 5,
) {
  return rows
    .slice(0, top)
    .map((row) => `${(units > 0 ? row.count / units : 0).toFixed(2).padStart(6)}  ${row.label}`)
}
