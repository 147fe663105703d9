import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'

// Freedom Pay's message format (docs/payments.md#freedom-pay): `pg_*` fields, form-encoded one
// way and XML the other, every message signed with `pg_sig`. The signature is the MD5 of the
// script name, the values of all fields sorted by name, and the secret key, joined by `;`; a
// nested field is signed the same way, recursively, where it stands, and fields of one name
// keep the order they came in. Freedom Pay's own client library does this by renaming every
// field to its name plus its 1-based position (three digits) behind its parent's new name
// (`pg_refund_payments011pg_refund_payment001pg_amount003`), then sorting all leaves by those
// names; this does the same, so both sides compute the same line for any message.

/** A call to Freedom Pay's API that failed, or an answer that cannot be believed. */
export class FreedomPayError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'FreedomPayError'
  }
}

/** One field of a message: a value, or nested fields (an XML tag with tags inside). */
export type PgNode = { name: string; value: string } | { name: string; children: PgNode[] }
/** A whole message, its fields in the order they came. */
export type PgMessage = PgNode[]
export type PgFields = Record<string, string>

const hasChildren = (node: PgNode): node is { name: string; children: PgNode[] } =>
  'children' in node

/** The leaves of a message with their sortable names (see above). */
function flatten(nodes: PgMessage, parent = ''): [string, string][] {
  const leaves: [string, string][] = []
  nodes.forEach((node, index) => {
    if (node.name === 'pg_sig') return
    const name = `${parent}${node.name}${String(index + 1).padStart(3, '0')}`
    if (hasChildren(node)) leaves.push(...flatten(node.children, name))
    else leaves.push([name, node.value])
  })
  return leaves
}

/** The line that is hashed: script name, values in signature order, secret key. */
export function signatureLine(script: string, message: PgMessage, secretKey: string): string {
  const values = flatten(message)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, value]) => value)
  return [script, ...values, secretKey].join(';')
}

/** `pg_sig` for a message sent to or from `script` (its own pg_sig is left out). */
export function pgSignature(script: string, message: PgMessage, secretKey: string): string {
  return createHash('md5')
    .update(signatureLine(script, message, secretKey), 'utf8')
    .digest('hex')
}

/** The message's own pg_sig (top level), if any. */
export function givenSignature(message: PgMessage): string | null {
  const node = message.find((field) => field.name === 'pg_sig')
  return node && !hasChildren(node) ? node.value : null
}

/** Whether the message's pg_sig is right for `script`, compared in constant time. */
export function pgSignatureValid(script: string, message: PgMessage, secretKey: string): boolean {
  const given = givenSignature(message)
  if (!given || !/^[0-9a-f]{32}$/i.test(given)) return false
  const expected = Buffer.from(pgSignature(script, message, secretKey), 'hex')
  return timingSafeEqual(expected, Buffer.from(given.toLowerCase(), 'hex'))
}

export const fieldsMessage = (fields: PgFields): PgMessage =>
  Object.entries(fields).map(([name, value]) => ({ name, value }))

/** The top-level values of a message, first of each name; nested fields are left out. */
export function topFields(message: PgMessage): PgFields {
  const fields: PgFields = {}
  for (const node of message) {
    if (!hasChildren(node) && !Object.hasOwn(fields, node.name)) fields[node.name] = node.value
  }
  return fields
}

/**
 * The entries of a top-level list of a message (`<pg_refund_payments>` holding one
 * `<pg_refund_payment>` per refund), each as its own top-level values; none when it is absent.
 */
export function listEntries(message: PgMessage, list: string): PgFields[] {
  const node = message.find((field) => field.name === list)
  if (!node || !hasChildren(node)) return []
  return node.children.flatMap((entry) => (hasChildren(entry) ? [topFields(entry.children)] : []))
}

export function pgSalt(): string {
  return randomBytes(12).toString('hex')
}

/** Flat fields with pg_salt and pg_sig for `script` added. */
export function signFields(script: string, fields: PgFields, secretKey: string): PgFields {
  const salted = { ...fields, pg_salt: fields.pg_salt ?? pgSalt() }
  return { ...salted, pg_sig: pgSignature(script, fieldsMessage(salted), secretKey) }
}

/**
 * A form body as the message PHP would see: `a[b][c]=v` nests (PHP's own reading of such a
 * body, `a[]` counting up), a plain name given twice stays twice, in its order.
 */
export function parseFormMessage(body: string): PgMessage {
  const message: PgMessage = []
  for (const [rawName, value] of new URLSearchParams(body)) {
    const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(rawName)
    if (!match || !match[2]) {
      message.push({ name: rawName, value })
      continue
    }
    const keys = [...match[2].matchAll(/\[([^[\]]*)\]/g)].map((key) => key[1]!)
    let level = message
    let name = match[1]!
    for (const key of keys) {
      let branch = level.find((node) => node.name === name && hasChildren(node))
      if (!branch || !hasChildren(branch)) {
        branch = { name, children: [] }
        level.push(branch)
      }
      level = branch.children
      name = key === '' ? String(nextIndex(level)) : key
    }
    const leaf = level.find((node) => node.name === name && !hasChildren(node))
    if (leaf && !hasChildren(leaf)) leaf.value = value
    else level.push({ name, value })
  }
  return message
}

function nextIndex(level: PgMessage): number {
  const numbers = level.map((node) => Number(node.name)).filter((n) => Number.isInteger(n))
  return numbers.length ? Math.max(...numbers) + 1 : 0
}

const XML_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
}

function unescapeXml(text: string): string {
  return text
    .replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, '$1')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
      if (name.startsWith('#x') || name.startsWith('#X')) {
        return String.fromCodePoint(parseInt(name.slice(2), 16))
      }
      if (name.startsWith('#')) return String.fromCodePoint(parseInt(name.slice(1), 10))
      return XML_ENTITIES[name.toLowerCase()] ?? whole
    })
}

export function escapeXml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
}

/**
 * The children of an XML answer's root element (`<response>`), nested tags kept as nested
 * fields. Null when the text is not such a document.
 */
export function parseXmlMessage(xml: string): PgMessage | null {
  const body = xml
    .replace(/<\?xml[\s\S]*?\?>/g, '')
    .replace(/<!--[\s\S]*?-->/g, '')
    .trim()
  const tag = /<(\/?)([A-Za-z_][\w.-]*)[^>]*?(\/?)>/g
  type Open = { name: string; children: PgNode[]; textFrom: number }
  const stack: Open[] = []
  let root: PgMessage | null = null
  let last = 0
  for (let match = tag.exec(body); match; match = tag.exec(body)) {
    const [whole, closing, name, selfClosing] = match
    if (stack.length === 0 && (root || closing || match.index !== 0)) return null
    if (selfClosing) {
      stack.at(-1)?.children.push({ name: name!, value: '' })
    } else if (!closing) {
      stack.push({ name: name!, children: [], textFrom: match.index + whole.length })
    } else {
      const open = stack.pop()
      if (!open || open.name !== name) return null
      const node: PgNode = open.children.length
        ? { name: open.name, children: open.children }
        : { name: open.name, value: unescapeXml(body.slice(open.textFrom, match.index).trim()) }
      if (stack.length === 0) root = hasChildren(node) ? node.children : []
      else stack.at(-1)!.children.push(node)
    }
    last = match.index + whole.length
  }
  return stack.length === 0 && root && last === body.length ? root : null
}

/** A signed `<response>` in Freedom Pay's format, for `script`. */
export function xmlResponse(script: string, fields: PgFields, secretKey: string): string {
  const signed = signFields(script, fields, secretKey)
  const body = Object.entries(signed)
    .map(([name, value]) => `  <${name}>${escapeXml(value)}</${name}>`)
    .join('\n')
  return `<?xml version="1.0" encoding="utf-8"?>\n<response>\n${body}\n</response>\n`
}
