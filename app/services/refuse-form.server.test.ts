import { expect, test } from 'vitest'
import { refuseForm } from '~/services/refuse-form.server.ts'
import { getToast } from '~/services/toast.server.ts'

/** The toast a browser would show after `init`'s answer. */
async function toastOf(init: ResponseInit | null | undefined) {
  const setCookie = new Headers(init?.headers).get('Set-Cookie') ?? ''
  const cookie = setCookie.split(';')[0]!
  return (await getToast(new Request('http://localhost/', { headers: { Cookie: cookie } }))).toast
}

const text = (key: string) => `«${key}»`

test("a refused form: its result back to the form, a toast with the first error's text", async () => {
  const result = {
    status: 'error' as const,
    error: { firstName: null, phone: ['validation.phoneFormat', 'second'], email: ['x'] },
  }
  const answer = await refuseForm(result, { status: 409, title: 'Не сохранено', text })
  expect(answer.init?.status).toBe(409)
  expect(answer.data).toEqual({ result })
  expect(await toastOf(answer.init)).toMatchObject({
    type: 'error',
    title: 'Не сохранено',
    description: '«validation.phoneFormat»',
  })
})

test('without an error the toast says the title; extra fields join or replace the result', async () => {
  const result = { status: 'error' as const, error: {} }
  const answer = await refuseForm(result, {
    status: 400,
    title: 'Не сохранено',
    text,
    extra: { result: undefined, delivery: { orderId: 'o1', result } },
  })
  expect(answer.data).toEqual({ result: undefined, delivery: { orderId: 'o1', result } })
  expect(await toastOf(answer.init)).toMatchObject({ description: 'Не сохранено' })
})
