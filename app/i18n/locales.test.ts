import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, test } from 'vitest'
import { supportedLanguages } from './config.ts'

// ru is the source; every other language must have every key (plural forms aside) and the
// same interpolation placeholders.
const dir = path.resolve(import.meta.dirname, '../locales')

function flatten(value: unknown, prefix = ''): Map<string, string> {
  const out = new Map<string, string>()
  if (typeof value === 'string') {
    out.set(prefix, value)
    return out
  }
  for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
    for (const [k, v] of flatten(child, prefix ? `${prefix}.${key}` : key)) out.set(k, v)
  }
  return out
}

const stripPlural = (key: string) => key.replace(/_(zero|one|two|few|many|other)$/, '')
const placeholders = (text: string) =>
  [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort()

const namespaces = readdirSync(path.join(dir, 'ru')).filter((file) => file.endsWith('.json'))

describe.each(namespaces)('namespace %s', (file) => {
  const source = flatten(JSON.parse(readFileSync(path.join(dir, 'ru', file), 'utf8')))
  const sourceKeys = new Set([...source.keys()].map(stripPlural))

  test.each(supportedLanguages.filter((lng) => lng !== 'ru'))('%s is complete', (lng) => {
    const target = flatten(JSON.parse(readFileSync(path.join(dir, lng, file), 'utf8')))
    const targetKeys = new Set([...target.keys()].map(stripPlural))
    expect([...sourceKeys].filter((key) => !targetKeys.has(key))).toEqual([])
    expect([...targetKeys].filter((key) => !sourceKeys.has(key))).toEqual([])
    for (const [key, text] of target) {
      const sourceText = source.get(key) ?? source.get(`${stripPlural(key)}_other`) ?? ''
      expect(placeholders(text), `${lng}:${key}`).toEqual(placeholders(sourceText))
    }
  })
})

// The browser has no fallback language (app/entry.client.tsx, decision 087): a count in a
// language needs each plural form that language's rules name, or the key would show.
describe.each(supportedLanguages)('%s', (lng) => {
  const categories = new Intl.PluralRules(lng).resolvedOptions().pluralCategories
  test.each(namespaces)('has every plural form its rules need in %s', (file) => {
    const keys = new Set(
      flatten(JSON.parse(readFileSync(path.join(dir, lng, file), 'utf8'))).keys(),
    )
    const plurals = new Set([...keys].filter((key) => stripPlural(key) !== key).map(stripPlural))
    const missing = [...plurals].flatMap((base) =>
      categories.filter((category) => !keys.has(`${base}_${category}`)).map((c) => `${base}_${c}`),
    )
    expect(missing).toEqual([])
  })
})
