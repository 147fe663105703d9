// The slug rule: docs/rules.md#display-ids-and-slugs.
export const INVALID_SLUG = 'invalid-auction'
const TITLE_PART_MAX = 35

export function slugify(
  title: string | null | undefined,
  displayId: string | null | undefined,
): string {
  if (!title || !displayId) return INVALID_SLUG
  const titlePart = title
    .toLowerCase()
    .replace(/[^a-z0-9\u0400-\u04ff\s-]/g, '')
    .trim()
    .replace(/\s+/g, '-')
    .replace(/-+/g, '-')
    .slice(0, TITLE_PART_MAX)
  const idPart = displayId.toLowerCase().replace(/[\\/]/g, '-')
  return `${titlePart}-${idPart}`
}
