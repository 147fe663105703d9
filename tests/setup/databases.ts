import pg from 'pg'

export function databaseUrl(baseUrl: string, name: string): string {
  const url = new URL(baseUrl)
  url.pathname = `/${name}`
  return url.toString()
}

async function withAdmin<T>(baseUrl: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl(baseUrl, 'postgres') })
  await client.connect()
  try {
    return await fn(client)
  } finally {
    await client.end()
  }
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`

export async function createDatabase(baseUrl: string, name: string, template?: string) {
  await withAdmin(baseUrl, async (client) => {
    for (let attempt = 0; ; attempt++) {
      try {
        await client.query(
          `CREATE DATABASE ${quote(name)}${template ? ` TEMPLATE ${quote(template)}` : ''}`,
        )
        return
      } catch (error) {
        // Two copies of one template at the same instant can collide; try again shortly.
        if (attempt >= 10 || !/being accessed by other users/.test(String(error))) throw error
        await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 200))
      }
    }
  })
}

export async function dropDatabases(baseUrl: string, pattern: string) {
  await withAdmin(baseUrl, async (client) => {
    const { rows } = await client.query<{ datname: string }>(
      'SELECT datname FROM pg_database WHERE datname LIKE $1',
      [pattern],
    )
    for (const row of rows) {
      await client.query(`DROP DATABASE IF EXISTS ${quote(row.datname)} WITH (FORCE)`)
    }
  })
}
