import type { Fields } from './fuzz-forms.ts'
import type { Body } from './pages.ts'

// What the page-action fuzz (fuzz-pages-*.e2e.ts) sends in place of a well-formed form: hostile
// values, broken encodings, hostile queries.

/** Values that may pass a form's checks and must still not hurt: each one field at a time. */
export const sneaky = [
  'a\u0000b',
  '<script>alert(1)</script>',
  `' OR 1=1; DROP TABLE "User"; --`,
  '\u202E💣 ქართული ̈ﷺ',
  '1e309',
  '-1',
]
/** Values no field takes: all fields at once. */
export const garbage = ['', 'x'.repeat(1_000_000), 'NaN', '9'.repeat(400)]

export const hostileQuery =
  'redirectTo=%2F%2Fevil.example&page=-1e309&botsPage=NaN&edit=%3Cscript%3E&confirm=delete%3A%27%20OR%201%3D1&tab=%F0%9F%92%A3&status=%27&payment=..%2F..'

/** The same form, broken every way a client can break it. */
export function bodies(
  fields: Fields,
): Array<{ name: string; body: Body | undefined; query?: string }> {
  const encoded = new URLSearchParams(fields).toString()
  const form = 'application/x-www-form-urlencoded'
  const keep = (change: (key: string, value: string) => Array<[string, string]>) =>
    Object.entries(fields).flatMap(([key, value]) =>
      key === 'intent' ? [[key, value] as [string, string]] : change(key, value),
    )
  const files = new FormData()
  for (const [key, value] of Object.entries(fields)) {
    files.append(
      key,
      new Blob([value, '\u0000\u00ff'], { type: 'application/x-msdownload' }),
      '../../a.exe',
    )
  }
  const broken = keep((key) => [[key, '']])
    .map(([key, value]) => (value ? `${key}=${encodeURIComponent(value)}` : `${key}=`))
    .join('&')
  return [
    { name: 'no body', body: undefined },
    { name: 'empty form', body: { form: {} } },
    { name: 'JSON', body: { raw: JSON.stringify(fields), type: 'application/json' } },
    { name: 'JSON as a form', body: { raw: JSON.stringify(fields), type: form } },
    { name: 'text/plain', body: { raw: encoded, type: 'text/plain' } },
    {
      name: 'XML',
      body: {
        raw: '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>',
        type: 'application/xml',
      },
    },
    {
      name: '10k fields',
      body: {
        form: {
          ...Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`f${i}`, `${i}`])),
          ...fields,
        },
      },
    },
    {
      name: 'repeated keys',
      body: { form: Object.fromEntries(keep((k, v) => [[k, [v, '-1', '<b>x</b>'] as never]])) },
    },
    {
      name: 'nested keys',
      body: {
        form: Object.fromEntries(
          keep((k, v) => [
            [`${k}[0]`, v],
            [`${k}[1]`, v],
            [`${k}.__proto__.role`, 'admin'],
          ]),
        ),
      },
    },
    { name: 'files', body: { raw: files } },
    {
      name: 'multipart without a boundary',
      body: {
        raw: `--b\r\nContent-Disposition: form-data; name="intent"\r\n\r\nx\r\n--b--`,
        type: 'multipart/form-data',
      },
    },
    {
      name: 'broken multipart',
      body: { raw: '--zzz\r\nnonsense', type: 'multipart/form-data; boundary=zzz' },
    },
    { name: 'bad %-escapes', body: { raw: `${broken}&x=%ZZ%&y=%E0%A4%A&${encoded}`, type: form } },
    {
      name: 'invalid UTF-8',
      body: {
        raw: new Blob(
          Object.entries(fields).map(([key, value]) =>
            Buffer.concat([
              Buffer.from(`${key}=`),
              key === 'intent' ? Buffer.from(value) : Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xa0]),
              Buffer.from('&'),
            ]),
          ),
        ),
        type: `${form}; charset=utf-8`,
      },
    },
    { name: 'unknown intent', body: { form: { ...fields, intent: '<script>x</script>' } } },
    { name: 'hostile query', body: { form: fields }, query: hostileQuery },
    { name: 'query with %-garbage', body: { form: fields }, query: 'page=%E0%A4%A&x=%00' },
  ]
}

/** The same form with hostile values: one field at a time, or in every field at once. */
export function mutations(fields: Fields) {
  const named = (name: string, form: Fields) => ({
    name,
    body: { form } as Body,
    query: undefined as string | undefined,
  })
  const show = (value: string) =>
    JSON.stringify(value.length > 20 ? `${value.slice(0, 20)}…` : value)
  const keys = Object.keys(fields).filter((key) => key !== 'intent')
  return [
    ...keys.flatMap((key) =>
      sneaky.map((value) => named(`${key}=${show(value)}`, { ...fields, [key]: value })),
    ),
    ...garbage.map((value) =>
      named(`all=${show(value)}`, {
        ...fields,
        ...Object.fromEntries(keys.map((key) => [key, value])),
      }),
    ),
  ]
}
