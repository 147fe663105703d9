// What `npm test` repeats at its end of a failed step's output: the tests vitest names as failed and
// the errors it caught outside any test. A lane's output runs to thousands of lines, interleaved
// with the other lanes'; CI keeps only the last of them.

/** Escape sequences that colour a terminal's text. */
// eslint-disable-next-line no-control-regex
const COLOURS = /\u001b\[[0-9;]*m/g

/** Lines kept at most per step: the first failures are the ones to read. */
const MOST = 24

/**
 * Collects, from a vitest run's lines, each `FAIL` line of its summary with the error after it,
 * each unhandled error with its first lines, and what a failed browser test's pages were waiting
 * for (`[pages]`, tests/e2e/browser.ts).
 */
export function failureNotes() {
  const noted: string[] = []
  /** Further non-empty lines to keep after the last line kept. */
  let following = 0
  const keep = (line: string) => {
    if (noted.length < MOST) noted.push(line)
  }
  return {
    noted,
    onLine(raw: string) {
      // Headings are drawn between rules (⎯); a failure's source is quoted with line numbers.
      const text = raw.replace(COLOURS, '').replace(/⎯+/g, '').trim()
      if (!text || /^\[\d+\/\d+\]$/.test(text) || /^\d+\|/.test(text)) return
      if (/^(Vitest caught|This might cause)/.test(text)) return
      if (/^FAIL\s/.test(text)) {
        keep(text)
        following = 1
      } else if (/^Unhandled (Errors?|Rejections?)$/.test(text)) {
        keep(text)
        following = 2
      } else if (/^This error originated in /.test(text) || text.startsWith('[pages] ')) {
        keep(text)
      } else if (following > 0) {
        keep(`  ${text}`)
        following -= 1
      }
    },
  }
}

/**
 * What a framework or Node says it will stop doing (Remix's "REMIX FUTURE CHANGE", React
 * Router's future flag warnings, Node's DeprecationWarning), each kind once: the suite fails on
 * them, so that a maintainer answers each as it says instead of learning to ignore it.
 */
export const DEPRECATION = /REMIX FUTURE CHANGE|Future Flag Warning|DeprecationWarning/

export function deprecationNotes() {
  const noted = new Set<string>()
  return {
    noted,
    onLine(raw: string) {
      const text = raw.replace(COLOURS, '').trim()
      if (DEPRECATION.test(text) && noted.size < MOST) noted.add(text.slice(0, 400))
    },
  }
}
