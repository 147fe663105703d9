import type { Resource } from 'i18next'

// The server holds every language in memory; the browser loads only its own (entry.client.tsx).
const modules = import.meta.glob<{ default: Record<string, unknown> }>('../locales/*/*.json', {
  eager: true,
})

export const resources: Resource = {}
for (const [file, module] of Object.entries(modules)) {
  const match = /\/locales\/([^/]+)\/([^/]+)\.json$/.exec(file)
  if (!match) continue
  const [, lng, ns] = match as unknown as [string, string, string]
  resources[lng] ??= {}
  resources[lng][ns] = module.default
}
