import { createHash } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import type { FakeBehaviour, FakeNode, FakePayment, Fields } from './freedompay-fake-types.ts'

// Freedom Pay's messages as the local fake (freedompay-fake.ts) reads and writes them: form
// fields in, XML out, both signed with pg_sig.

/**
 * Freedom Pay's signature, written here apart from the app's on purpose: every field renamed to
 * its name and 1-based position (three digits) behind its parent's new name, the leaves sorted
 * by those names, then md5(script;values…;secret), as Freedom Pay's own client library does.
 */
export function flatLeaves(nodes: FakeNode[], parent = ''): [string, string][] {
  return nodes.flatMap(([name, value], index): [string, string][] => {
    if (name === 'pg_sig') return []
    const key = `${parent}${name}${String(index + 1).padStart(3, '0')}`
    return typeof value === 'string' ? [[key, value]] : flatLeaves(value, key)
  })
}

export function md5Signature(script: string, nodes: FakeNode[], secret: string): string {
  const values = flatLeaves(nodes)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, value]) => value)
  return createHash('md5')
    .update([script, ...values, secret].join(';'), 'utf8')
    .digest('hex')
}

export const nodesOf = (fields: Fields): FakeNode[] => Object.entries(fields)

export function xml(nodes: FakeNode[]): string {
  const escape = (text: string) =>
    text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
  const render = (list: FakeNode[]): string =>
    list.map(([k, v]) => `<${k}>${typeof v === 'string' ? escape(v) : render(v)}</${k}>`).join('')
  return `<?xml version="1.0" encoding="utf-8"?>\n<response>${render(nodes)}</response>`
}

/** A form body the way PHP's http_build_query writes nested fields: `a[b][c]=v`. */
export function formBody(nodes: FakeNode[]): string {
  const pairs: [string, string][] = []
  const walk = (list: FakeNode[], prefix: string | null) => {
    for (const [name, value] of list) {
      const key = prefix === null ? name : `${prefix}[${name}]`
      if (typeof value === 'string') pairs.push([key, value])
      else walk(value, key)
    }
  }
  walk(nodes, null)
  return new URLSearchParams(pairs).toString()
}

export function readFields(request: IncomingMessage): Promise<Fields> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const fields: Fields = {}
      const text = Buffer.concat(chunks).toString('utf8')
      for (const [k, v] of new URLSearchParams(text)) fields[k] = v
      resolve(fields)
    })
    request.on('error', reject)
  })
}

export function tagValue(body: string, name: string): string | null {
  const match = new RegExp(`<${name}>([^<]*)</${name}>`).exec(body)
  return match ? match[1]! : null
}

/**
 * The result callback Freedom Pay sends the merchant for `payment`, as `behaviour` shapes it:
 * its fields (nested or repeated extra ones too), signed for the result URL's script, and the
 * form body as sent. Only the first call (`attempt` 0) lets the merchant refuse the money.
 */
export function callbackMessage(
  payment: FakePayment,
  b: FakeBehaviour,
  secretKey: string,
  attempt: number,
) {
  const paid = payment.status === 'success'
  const canReject = attempt === 0 ? (b.canReject ?? '1') : '0'
  const fields: Fields = {
    pg_order_id: b.orderId ?? payment.orderId,
    pg_payment_id: payment.id,
    pg_amount: b.amount ?? payment.amount,
    pg_currency: b.currency ?? payment.currency,
    pg_net_amount: b.amount ?? payment.amount,
    pg_ps_amount: b.amount ?? payment.amount,
    pg_ps_full_amount: b.amount ?? payment.amount,
    pg_ps_currency: b.currency ?? payment.currency,
    pg_description: payment.description,
    pg_result: paid ? '1' : '0',
    pg_payment_date: new Date().toISOString().slice(0, 19).replace('T', ' '),
    // Only the first call lets the merchant refuse the money (a retry no longer does).
    pg_can_reject: canReject,
    pg_testing_mode: payment.testingMode,
    pg_salt: `salt${Math.random().toString(36).slice(2)}`,
    ...(paid
      ? { pg_card_pan: '4405-64XX-XXXX-6150', pg_captured: '1' }
      : { pg_failure_code: '101', pg_failure_description: 'Card declined' }),
  }
  const nodes: FakeNode[] = [...nodesOf(fields), ...(b.extra ?? [])]
  const script = new URL(payment.resultUrl).pathname.split('/').filter(Boolean).pop() ?? ''
  nodes.push(['pg_sig', md5Signature(script, nodes, b.wrongSignature ? 'wrong-key' : secretKey)])
  return { fields, nodes, script, sent: formBody(nodes), canReject }
}

/** The merchant's XML answer to a callback: its fields, and whether its pg_sig is right. */
export function callbackAnswer(body: string, script: string, secretKey: string) {
  const answer: Fields = {}
  for (const name of ['pg_status', 'pg_description', 'pg_salt', 'pg_sig']) {
    const value = tagValue(body, name)
    if (value !== null) answer[name] = value
  }
  const unsigned = { ...answer }
  delete unsigned.pg_sig
  const signed =
    Boolean(answer.pg_sig) && md5Signature(script, nodesOf(unsigned), secretKey) === answer.pg_sig
  return { fields: answer, signed }
}
