import type pg from 'pg'

/** One statement inside the batch's transaction. */
export type Sql = <Row extends pg.QueryResultRow = pg.QueryResultRow>(
  text: string,
  params?: unknown[],
) => Promise<pg.QueryResult<Row>>

/** A row an entry updates is not there (its auction or user was deleted meanwhile). */
export class MissingRowError extends Error {}

/** Errors that retrying cannot fix: a row the entry refers to is gone. */
export function isDataError(error: unknown): boolean {
  if (error instanceof MissingRowError) return true
  // A foreign key or unique violation: Postgres codes 23503, 23505.
  const { code } = (error ?? {}) as { code?: unknown }
  return code === '23503' || code === '23505'
}
