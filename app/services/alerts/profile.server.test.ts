import { expect, test } from 'vitest'
import { getAlertChoices } from '~/models/alert-choices.server.ts'
import { handleAlertChoicesForm } from '~/services/alerts/profile.server.ts'
import { getToast } from '~/services/toast.server.ts'
import { getPrisma } from '~/utils/db.server.ts'

// The profile's alerts form (intent `alerts`), with and without a channel's switches, against
// Postgres: saved choices, and a refusal of a half-set or malformed quiet time.

const request = () =>
  new Request('http://localhost/profile', { method: 'POST', headers: { 'Accept-Language': 'en' } })
const form = (fields: Array<[string, string]>) => {
  const data = new FormData()
  for (const [name, value] of fields) data.append(name, value)
  return data
}
/** The toast the answer's cookie carries, as the next page reads it. */
async function toastOf(response: Response) {
  const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0]!
  const { toast } = await getToast(
    new Request('http://localhost/', { headers: { Cookie: cookie } }),
  )
  return toast
}

test('quiet hours are saved, and a half-set or malformed one is refused with a message', async () => {
  const name = `pf${Date.now().toString(36)}`
  const user = await getPrisma().user.create({ data: { username: name, email: `${name}@mail.kg` } })
  const saved = await handleAlertChoicesForm(
    request(),
    user.id,
    form([
      ['quietFrom', '22'],
      ['quietTo', '7'],
    ]),
  )
  expect(saved.status).toBe(302)
  expect(saved.headers.get('location')).toBe('/profile#alerts')
  expect(await toastOf(saved)).toMatchObject({
    type: 'success',
    description: 'Alert settings saved',
  })
  expect(await getAlertChoices(user.id)).toEqual({ off: [], quietFrom: 22, quietTo: 7 })

  for (const fields of [
    [['quietFrom', '22']],
    [
      ['quietFrom', '25'],
      ['quietTo', '7'],
    ],
    [
      ['quietFrom', 'x'],
      ['quietTo', '7'],
    ],
  ] as Array<Array<[string, string]>>) {
    const refused = await handleAlertChoicesForm(request(), user.id, form(fields))
    expect(refused.status).toBe(302)
    expect(await toastOf(refused)).toMatchObject({
      type: 'error',
      description: 'Give both quiet hours (0 to 23), or neither',
    })
  }
  expect(await getAlertChoices(user.id)).toEqual({ off: [], quietFrom: 22, quietTo: 7 })

  await handleAlertChoicesForm(request(), user.id, form([]))
  expect(await getAlertChoices(user.id)).toEqual({ off: [], quietFrom: null, quietTo: null })
})
