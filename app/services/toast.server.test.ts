import { expect, test } from 'vitest'
import { createToastHeaders, getToast } from '~/services/toast.server.ts'
import type { ToastInput } from '~/validation/toast.ts'

/** The Cookie header a browser sends back for a Set-Cookie value. */
const sentBack = (setCookie: string) => setCookie.split(';')[0]!
const written = async (input: ToastInput) =>
  (await createToastHeaders(input)).get('Set-Cookie') ?? ''

const read = (cookie: string) =>
  getToast(new Request('http://localhost/', { headers: { Cookie: cookie } }))

const toasts: ToastInput[] = [
  { id: 'a1', type: 'success', description: 'Ставка принята' },
  {
    id: 'b2',
    type: 'error',
    title: 'Не удалось сделать ставку',
    description: 'Ваша ставка уже последняя — дождитесь чужой ставки',
  },
  { id: 'c3', type: 'message', description: 'ფსონი მიღებულია "quotes" & 100%' },
]

test('a toast cookie reads back once as the same toast', async () => {
  for (const input of toasts) {
    const { toast, headers } = await read(sentBack(await written(input)))
    expect(toast).toEqual({ type: 'message', ...input })
    // Read once: the answer that shows it clears it.
    expect(headers?.get('Set-Cookie')).toMatch(/^toast=; .*Expires=Thu, 01 Jan 1970/)
  }
})

test('a toast gets an id and a type when none is given; a forged cookie shows nothing', async () => {
  const first = await written({ description: 'x' })
  const { toast } = await read(sentBack(first))
  expect(toast).toMatchObject({ type: 'message', description: 'x' })
  expect(toast?.id).toMatch(/^[0-9a-z]+$/)
  expect((await read(sentBack(await written({ description: 'x' })))).toast?.id).not.toBe(toast?.id)

  const [name, value] = sentBack(first).split('=') as [string, string]
  const [payload, signature] = decodeURIComponent(value).split('.') as [string, string]
  const forged = Buffer.from(
    JSON.stringify({ __flash_toast__: { id: 'f', type: 'success', description: 'forged' } }),
  ).toString('base64')
  expect((await read(`${name}=${encodeURIComponent(`${forged}.${signature}`)}`)).toast).toBeNull()
  expect((await read(`${name}=${encodeURIComponent(`${payload}.x${signature}`)}`)).toast).toBeNull()
})
