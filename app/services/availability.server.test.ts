import type { ActionFunctionArgs } from '@remix-run/node'
import { expect, test } from 'vitest'
import { limits } from '~/services/rate-limit.server.ts'
import { getEnv } from '~/utils/env.server.ts'
import { availabilityAction } from './availability.server.ts'

// The availability checks' limit counts a client as rate-limit.server.ts's clientKey() does.

const check = availabilityAction('username')

async function ask(clientIp: string) {
  const request = new Request('http://localhost/api/auth/validate-username', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'Accept-Language': 'ru' },
    body: JSON.stringify({ username: 'someone_free' }),
  })
  const response = await check({
    request,
    params: {},
    context: { clientIp },
  } as unknown as ActionFunctionArgs)
  return response.status
}

test('the addresses of one IPv6 /64 share one allowance of availability checks', async () => {
  const allowed = Math.max(1, Math.round(limits.validatePerIp.limit * getEnv().RATE_LIMIT_SCALE))
  const statuses: number[] = []
  for (let i = 1; i <= allowed; i += 1) statuses.push(await ask(`2001:db8:77:1::${i.toString(16)}`))
  expect(statuses).toEqual(Array<number>(allowed).fill(200))
  expect(await ask('2001:db8:77:1:abcd::1')).toBe(429)
  // Another network still asks.
  expect(await ask('2001:db8:77:2::1')).toBe(200)
})
