// The driver adapter the Prisma CLI's JS schema engine uses (prisma.config.ts). It works around
// two faults of Prisma 6.19 + @prisma/adapter-pg; see docs/decisions/002-prisma-offline-js-engine.md.
import { randomUUID } from 'node:crypto'
import { PrismaPg } from '@prisma/adapter-pg'
import pg from 'pg'

type PgAdapter = Awaited<ReturnType<PrismaPg['connect']>>

const OID_CHAR = 18
const OID_NAME = 19
const OID_TEXT = 25

function isQueryResult(value: unknown): value is pg.QueryResult {
  return (
    typeof value === 'object' && value !== null && Array.isArray((value as pg.QueryResult).fields)
  )
}

// Introspection selects pg_catalog columns of types "char" and name, which the adapter refuses
// to map ("Column type 'name' could not be deserialized", prisma/prisma#27403). Both arrive as
// plain strings in the text protocol, so reporting them as text is exact.
function reportCatalogTypesAsText<T>(result: T): T {
  for (const item of Array.isArray(result) ? result : [result]) {
    if (!isQueryResult(item)) continue
    for (const field of item.fields) {
      if (field.dataTypeID === OID_CHAR || field.dataTypeID === OID_NAME) {
        field.dataTypeID = OID_TEXT
      }
    }
  }
  return result
}

type QueryArgs = unknown[]
type Callback = (err: Error | null, result: unknown) => void

// pg.Client.query has many overloads (promise, callback, submittable); this override keeps all
// of them and only touches the results.
class CatalogAsTextClient extends pg.Client {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override query(...args: QueryArgs): any {
    const last = args[args.length - 1]
    if (typeof last === 'function') {
      const callback = last as Callback
      args[args.length - 1] = (err: Error | null, result: unknown) =>
        callback(err, err ? result : reportCatalogTypesAsText(result))
      return (super.query as (...a: QueryArgs) => unknown)(...args)
    }
    const returned = (super.query as (...a: QueryArgs) => unknown)(...args)
    return returned instanceof Promise ? returned.then(reportCatalogTypesAsText) : returned
  }
}

function poolConfig(connectionString: string, database?: string): pg.PoolConfig {
  const config: pg.PoolConfig = {
    connectionString,
    Client: CatalogAsTextClient as unknown as pg.PoolConfig['Client'],
  }
  if (database) {
    const url = new URL(connectionString)
    url.pathname = `/${encodeURIComponent(database)}`
    config.connectionString = url.toString()
  }
  return config
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`
}

async function withClient<T>(connectionString: string, run: (client: pg.Client) => Promise<T>) {
  const client = new pg.Client({ connectionString })
  await client.connect()
  try {
    return await run(client)
  } finally {
    await client.end()
  }
}

/**
 * PrismaPg for the schema engine. The stock `connectToShadowDb` drops the shadow database through
 * a connection to the main one while the shadow pool is still open, so the DROP fails and the
 * database leaks; here the shadow database is created with `pg` and dropped `WITH (FORCE)` only
 * after the shadow adapter has been disposed.
 */
export class MigrationPgAdapterFactory extends PrismaPg {
  readonly #connectionString: string

  constructor(connectionString: string) {
    super(poolConfig(connectionString))
    this.#connectionString = connectionString
  }

  override async connectToShadowDb(): Promise<PgAdapter> {
    const mainUrl = this.#connectionString
    const database = `prisma_migrate_shadow_db_${randomUUID()}`
    await withClient(mainUrl, (client) => client.query(`CREATE DATABASE ${quoteIdent(database)}`))
    let adapter: PgAdapter
    try {
      adapter = await new PrismaPg(poolConfig(mainUrl, database)).connect()
    } catch (error) {
      await dropDatabase(mainUrl, database)
      throw error
    }
    const disposeShadow = adapter.dispose.bind(adapter)
    adapter.dispose = async () => {
      try {
        await disposeShadow()
      } finally {
        await dropDatabase(mainUrl, database)
      }
    }
    return adapter
  }
}

async function dropDatabase(mainUrl: string, database: string): Promise<void> {
  await withClient(mainUrl, (client) =>
    client.query(`DROP DATABASE IF EXISTS ${quoteIdent(database)} WITH (FORCE)`),
  )
}

export function migrationAdapter(connectionString: string | undefined): MigrationPgAdapterFactory {
  if (!connectionString) {
    throw new Error('DATABASE_URL is not set; the Prisma CLI needs it (see .env.example)')
  }
  return new MigrationPgAdapterFactory(connectionString)
}
