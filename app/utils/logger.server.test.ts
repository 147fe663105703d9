import { afterEach, describe, expect, test, vi } from 'vitest'
import { NotReplicated } from '../../engine/index.ts'
import { isUnavailable, log, noteRequest, withRequestContext } from './logger.server.ts'

describe('structured logs', () => {
  const level = process.env.LOG_LEVEL
  afterEach(() => {
    vi.restoreAllMocks()
    process.env.LOG_LEVEL = level
  })

  test('a line written while a request is handled names the request, its user and auction', async () => {
    process.env.LOG_LEVEL = 'warn'
    const lines: string[] = []
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      lines.push(String(chunk))
      return true
    })
    await withRequestContext({ requestId: 'r-1' }, async () => {
      await Promise.resolve()
      noteRequest({ userId: 'u-1' })
      noteRequest({ auctionId: 'a-1' })
      setTimeout(() => log.warn('later', { extra: 1 }), 0)
      await new Promise((resolve) => setTimeout(resolve, 5))
    })
    log.warn('outside')
    const [inside, outside] = lines.map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(inside).toMatchObject({
      level: 'warn',
      msg: 'later',
      requestId: 'r-1',
      userId: 'u-1',
      auctionId: 'a-1',
      extra: 1,
    })
    expect(outside).not.toHaveProperty('requestId')
  })

  test('tells an unreachable service from a fault in the request', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), {
      code: 'ECONNREFUSED',
    })
    expect(isUnavailable(refused)).toBe(true)
    expect(isUnavailable(new Error('wrapped', { cause: refused }))).toBe(true)
    expect(isUnavailable(Object.assign(new Error('x'), { code: 'P1001' }))).toBe(true)
    expect(isUnavailable(new Error('Connection is closed.'))).toBe(true)
    // A write no replica confirmed in time, and a primary just turned replica by a failover.
    expect(isUnavailable(new NotReplicated('bid', 0, 1))).toBe(true)
    expect(isUnavailable(new Error("READONLY You can't write against a read only replica."))).toBe(
      true,
    )
    expect(isUnavailable(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBe(
      false,
    )
    expect(isUnavailable(Object.assign(new Error('unique'), { code: 'P2002' }))).toBe(false)
    expect(isUnavailable('text')).toBe(false)
  })
})
