import { expect, test } from 'vitest'
import { adminCookie } from '../../../tests/support/admin-session.ts'
import { longPng } from '../../../tests/support/images.ts'
import { action } from './api.admin.images.ts'

// POST /api/admin/images refuses a picture it cannot keep with a 4xx and the reason in the
// admin's language (docs/rules.md#product-images), never a 500.

async function upload(picture: Buffer, language: string, cookie: string) {
  const form = new FormData()
  form.set('image', new File([new Uint8Array(picture)], 'long.png', { type: 'image/png' }))
  const request = new Request('http://localhost/api/admin/images', {
    method: 'POST',
    headers: { Cookie: cookie, 'Accept-Language': language },
    body: form,
  })
  const response = await action({ request, params: {}, context: {} as never }).catch(
    (thrown: unknown) => {
      if (thrown instanceof Response) return thrown
      throw thrown
    },
  )
  return { status: response.status, json: (await response.json()) as unknown }
}

test('a 1 x 40,000,000 picture is a 400 with the reason in the admin language', async () => {
  const cookie = await adminCookie()
  const long = longPng(1, 40_000_000)
  expect(await upload(long, 'ru', cookie)).toEqual({
    status: 400,
    json: { error: 'Сторона изображения больше 10 000 пикселей' },
  })
  expect(await upload(long, 'en', cookie)).toEqual({
    status: 400,
    json: { error: 'A side of the image is longer than 10,000 pixels' },
  })
})
