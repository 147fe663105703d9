import { expect, test } from 'vitest'
// Every script the engine defines, the web tier's too.
import './index.ts'
import { definedScripts } from './lua-runner.ts'
import { STATE_FIELDS } from './reads.ts'

const highest = (lua: string, name: 'KEYS' | 'ARGV') =>
  Math.max(0, ...[...lua.matchAll(new RegExp(`${name}\\[(\\d+)\\]`, 'g'))].map((m) => Number(m[1])))

test('every script names each of its KEYS and ARGV, in a file of its own', () => {
  const scripts = definedScripts()
  expect(scripts.map((script) => script.name).sort()).toEqual([
    'adjust-balance',
    'auction-view',
    'auto-bid',
    'auto-bid-reserve',
    'auto-bid-return',
    'auto-bid-stop',
    'bid',
    'bot-bid',
    'credit',
    'end',
    'lease',
    'load-auction',
    'load-user',
    'login-attempt',
    'prebid',
    'rate-limit',
    'release',
    'remove-auction',
    'remove-user',
    'set-limits',
    'sweep',
    'take-back',
    'timers',
  ])
  for (const script of scripts) {
    expect(highest(script.lua, 'KEYS'), script.name).toBe(script.keys.length)
    // load-auction reads the lists after its named arguments by their counts.
    if (script.name !== 'load-auction')
      expect(highest(script.lua, 'ARGV'), script.name).toBe(script.args.length)
    expect(new Set(script.keys).size, script.name).toBe(script.keys.length)
    expect(new Set(script.args).size, script.name).toBe(script.args.length)
  }
})

test('the auction view reads the live fields in the order they are parsed', () => {
  const view = definedScripts().find((script) => script.name === 'auction-view')!
  const fields = [...STATE_FIELDS, 'meta'].map((field) => `'${field}'`).join(', ')
  expect(view.lua).toContain(`redis.call('HMGET', KEYS[1], ${fields})`)
  expect(view.lua).toContain(`for i = 1, ${STATE_FIELDS.length + 1} do`)
  expect(view.lua).toContain(`out[${STATE_FIELDS.length + 2} + i]`)
})
