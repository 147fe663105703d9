import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'

// Citations of the docs (a comment's `docs/rules.md#real-time-events`, a doc's
// `[decision 041](041-deleted-auction-refunds-from-postgres.md)`) must lead somewhere: the
// file exists and, after a `#`, one of its headings has that anchor. scripts/doc-links.test.ts
// checks every tracked source file and doc with these functions.

/** Where citations are looked for: the project's source and its docs. */
export const CITING_PATHS = [
  'app',
  'server',
  'engine',
  'scripts',
  'tests',
  'prisma',
  'bench',
  'deploy',
  'README.md',
  'docs',
]
const CITING_FILE = /\.(ts|tsx|js|mjs|cjs|md|sh|sql|prisma|conf|ya?ml|json|lua)$|(^|\/)Dockerfile$/

/** One citation of a doc: the file and line it stands on, the path cited, and the anchor if any. */
export type Citation = { file: string; line: number; target: string; anchor: string | null }

/**
 * The anchor GitHub gives a heading: the heading's text lowercased, punctuation dropped (letters,
 * digits, `_`, `-` and spaces stay), each space a `-`.
 */
export function headingSlug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // a link or image: its text
    .replace(/<[^>]+>/g, '') // inline HTML
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-')
}

/** The anchors of a markdown file's headings; a repeated one gets `-1`, `-2`… as on GitHub. */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>()
  const seen = new Map<string, number>()
  let fence: string | null = null
  for (const line of markdown.split('\n')) {
    const opening = /^\s*(```|~~~)/.exec(line)
    if (opening) {
      if (fence === null) fence = opening[1] ?? null
      else if (line.trim().startsWith(fence)) fence = null
      continue
    }
    if (fence !== null) continue
    const heading = /^ {0,3}#{1,6}\s+(.*?)(\s+#+)?\s*$/.exec(line)
    if (!heading) continue
    const slug = headingSlug(heading[1] ?? '')
    const count = seen.get(slug) ?? 0
    seen.set(slug, count + 1)
    anchors.add(count === 0 ? slug : `${slug}-${count}`)
  }
  return anchors
}

const MENTION = /(?<![\w./-])(docs\/[\w./-]*?\.md)(?:#([\p{L}\p{N}_-]+))?/gu
const MARKDOWN_LINK = /\]\(([^)\s]+)\)/g

/**
 * The doc citations in a file's text: every `docs/….md` (with its `#anchor`) named from the
 * repository's root and, in a markdown file, every link to a path relative to the file (a link
 * with a scheme, or to the site's own addresses starting with `/`, is not a citation).
 */
export function citationsIn(file: string, text: string): Citation[] {
  const found: Citation[] = []
  const lines = text.split('\n')
  lines.forEach((content, index) => {
    const line = index + 1
    for (const match of content.matchAll(MENTION)) {
      found.push({ file, line, target: match[1] ?? '', anchor: match[2] ?? null })
    }
    if (!file.endsWith('.md')) return
    for (const match of content.matchAll(MARKDOWN_LINK)) {
      const link = match[1] ?? ''
      if (/^[a-z][a-z0-9+.-]*:/i.test(link) || link.startsWith('/')) continue
      const [linkPath = '', anchor = null] = link.split('#')
      const target = linkPath === '' ? file : path.posix.join(path.posix.dirname(file), linkPath)
      found.push({ file, line, target, anchor: anchor || null })
    }
  })
  return found
}

/** What is wrong with a citation, or null; `read` gives a repository file's text or null. */
export function citationProblem(
  citation: Citation,
  read: (file: string) => string | null,
): string | null {
  const text = read(citation.target)
  if (text === null) return `${citation.target} does not exist`
  if (citation.anchor === null || !citation.target.endsWith('.md')) return null
  if (headingAnchors(text).has(citation.anchor)) return null
  return `${citation.target} has no heading #${citation.anchor}`
}

/** The files under CITING_PATHS that git tracks, relative to the repository's root. */
export function trackedCitingFiles(root: string): string[] {
  const listed = execFileSync('git', ['ls-files', '-z', '--', ...CITING_PATHS], {
    cwd: root,
    encoding: 'utf8',
  })
  return listed.split('\0').filter((file) => file !== '' && CITING_FILE.test(file))
}

/** Every broken doc citation in the given files, as `file:line: problem`. */
export function brokenCitations(root: string, files: readonly string[]): string[] {
  const texts = new Map<string, string | null>()
  const read = (file: string) => {
    if (!texts.has(file)) {
      const full = path.join(root, file)
      // A folder exists too, and has no headings.
      const found = existsSync(full) ? statSync(full) : null
      texts.set(file, found === null ? null : found.isFile() ? readFileSync(full, 'utf8') : '')
    }
    return texts.get(file) ?? null
  }
  const broken: string[] = []
  for (const file of files) {
    const text = read(file)
    if (text === null) continue
    for (const citation of citationsIn(file, text)) {
      const problem = citationProblem(citation, read)
      if (problem) broken.push(`${citation.file}:${citation.line}: ${problem}`)
    }
  }
  return broken
}
