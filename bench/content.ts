// The content's floor for `bench:ssr -- --content`: what a page of the site costs the framework
// when nothing of the site's code runs. One answer of each page measured is kept (its body's
// markup, and its loaders' data as the page's own `.data` request answers it); the bare app
// (bench/bare.ts) is built again with, at each of those routes, a page that renders that markup
// as plain React elements (bench/bare/content.tsx) from a loader returning that data. React's
// render of the same elements, Remix's encoding of the same data and the compression of the same
// bytes are then the framework's, and the site's page as a multiple of its content's says what
// the site's own code adds.
import { parse, type DefaultTreeAdapterMap } from 'parse5'
import { decode } from 'turbo-stream'
import type { ContentNode } from './bare/content.tsx'

type Element = DefaultTreeAdapterMap['element']
type ChildNode = DefaultTreeAdapterMap['childNode']

/**
 * A page of the site as one person was answered: its name in the report, where it is, its route,
 * markup and data.
 */
export type Snapshot = {
  name: string
  path: string
  routeId: string
  tree: ContentNode[]
  data: unknown
}

/** Attributes React knows by another name. */
const PROP_NAMES: Record<string, string> = {
  class: 'className',
  for: 'htmlFor',
  tabindex: 'tabIndex',
  readonly: 'readOnly',
  maxlength: 'maxLength',
  minlength: 'minLength',
  autocomplete: 'autoComplete',
  srcset: 'srcSet',
  crossorigin: 'crossOrigin',
  datetime: 'dateTime',
  enctype: 'encType',
  novalidate: 'noValidate',
  inputmode: 'inputMode',
  fetchpriority: 'fetchPriority',
  'accept-charset': 'acceptCharset',
  'http-equiv': 'httpEquiv',
}
/** Attributes that are on when present (React writes them for `true`). */
const BOOLEAN = new Set([
  'disabled',
  'checked',
  'hidden',
  'open',
  'required',
  'multiple',
  'selected',
  'readOnly',
  'noValidate',
  'inert',
])

/** `a-b: c; --d: e` as React's style object. */
function styleObject(text: string) {
  const style: Record<string, string> = {}
  for (const declaration of text.split(';')) {
    const colon = declaration.indexOf(':')
    if (colon < 0) continue
    const name = declaration.slice(0, colon).trim()
    const key = name.startsWith('--')
      ? name
      : name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())
    style[key] = declaration.slice(colon + 1).trim()
  }
  return style
}

function props(element: Element) {
  const result: Record<string, unknown> = {}
  for (const { name, value } of element.attrs) {
    const prop = PROP_NAMES[name] ?? name
    result[prop] = prop === 'style' ? styleObject(value) : BOOLEAN.has(prop) ? true : value
  }
  return result
}

/** The markup React renders for this node; scripts and the framework's preloads are its own. */
function contentNode(node: ChildNode): ContentNode | null {
  if (node.nodeName === '#text') return (node as DefaultTreeAdapterMap['textNode']).value
  if (!('tagName' in node)) return null // comments (React's text separators), doctypes
  if (node.tagName === 'script') return null
  if (
    node.tagName === 'link' &&
    node.attrs.some((a) => a.name === 'rel' && a.value === 'modulepreload')
  )
    return null
  const children = contentNodes(
    'content' in node
      ? (node as DefaultTreeAdapterMap['template']).content.childNodes
      : node.childNodes,
  )
  if (node.tagName === 'textarea') {
    return ['textarea', { ...props(node), defaultValue: children.join('') }]
  }
  return [node.tagName, props(node), ...children]
}

function contentNodes(nodes: ChildNode[]): ContentNode[] {
  return nodes.map(contentNode).filter((node): node is ContentNode => node !== null)
}

/** The body's content of a document, as the bare app's page renders it. */
export function bodyContent(html: string): ContentNode[] {
  // As a browser without scripts reads it: a <noscript>'s content is markup.
  const document = parse(html, { scriptingEnabled: false })
  const htmlElement = document.childNodes.find((node) => node.nodeName === 'html') as Element
  const body = htmlElement.childNodes.find((node) => node.nodeName === 'body') as Element
  return contentNodes(body.childNodes)
}

/** Where Remix answers a page's loaders' data (single fetch). */
export const dataPath = (page: string) => (page === '/' ? '/_root.data' : `${page}.data`)

/** One answer of `path` for the person with `cookie`: its markup, and its loaders' data. */
export async function snapshotPage(name: string, origin: string, path: string, cookie?: string) {
  const headers = { ...(cookie ? { cookie } : {}), 'accept-encoding': 'identity' }
  const page = await fetch(`${origin}${path}`, { headers })
  if (!page.ok) throw new Error(`${path}: ${page.status}`)
  const tree = bodyContent(await page.text())
  const answer = await fetch(`${origin}${dataPath(path)}`, { headers })
  if (!answer.ok || !answer.body) throw new Error(`${dataPath(path)}: ${answer.status}`)
  const decoded = await decode(answer.body)
  await decoded.done
  const byRoute = decoded.value as Record<string, { data?: unknown }>
  const routeIds = Object.keys(byRoute)
  const data = Object.fromEntries(routeIds.map((id) => [id, byRoute[id]?.data ?? null]))
  // The matches come root first: the last is the page's own route.
  return { name, path, routeId: routeIds.at(-1)!, tree, data } satisfies Snapshot
}

/** The module of a content page at one of the bare app's routes (`json`: its snapshot's file). */
export function contentModule(json: string) {
  return [
    "import { Outlet, useLoaderData } from '@remix-run/react'",
    "import { renderAll, type ContentNode } from '../content.tsx'",
    `import snapshot from './${json}'`,
    '',
    'export function loader() {',
    '  return snapshot.data',
    '}',
    '',
    'export default function Page() {',
    '  useLoaderData<typeof loader>()',
    '  return (',
    '    <>',
    '      {renderAll(snapshot.tree as ContentNode[])}',
    '      <Outlet />',
    '    </>',
    '  )',
    '}',
    '',
  ].join('\n')
}
