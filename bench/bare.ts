// The framework's floor for bench:ssr: a bare Remix app with the site's versions (this
// repository's node_modules) and the site's route tree, path for path, each route a page or a
// resource route as the site's is (read from the site's build), built from the templates in
// bench/bare/ into .cache/bench-bare/ (ignored by git) and served by bench/bare/server.ts with the
// same Express adapter. Its `/status.txt` is a resource route answering one line of text, its
// `/status` a one-line document: the two figures every ratio of bench:ssr is to.
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { SERVER_NODE_ARGS } from '../scripts/node-args.ts'
import { root } from '../tests/setup/stack.ts'
import { contentModule, type Snapshot } from './content.ts'
import { startServerProcess } from './site.ts'

const templates = path.join(root, 'bench/bare')
/** The bare app's folder; the one with the site's content (bench/content.ts) beside it. */
const folderFor = (content: readonly Snapshot[]) =>
  path.join(root, content.length ? '.cache/bench-bare-content' : '.cache/bench-bare')

/** A route of the site's build: where it sits in the tree, and whether it renders a page. */
type SiteRoute = { id: string; parentId?: string; path?: string; index?: boolean; page: boolean }

/** A route config entry (what `route()` and `index()` of @remix-run/route-config return). */
type Entry = { id: string; file: string; path?: string; index?: boolean; children?: Entry[] }

/** The site's routes, read from its build (build/server/index.js) in a process of its own. */
function siteRoutes(): SiteRoute[] {
  const script = `
    const build = await import(${JSON.stringify(path.join(root, 'build/server/index.js'))})
    const routes = Object.values(build.routes).map((route) => ({
      id: route.id, parentId: route.parentId, path: route.path, index: route.index,
      page: typeof route.module.default === 'function',
    }))
    process.stdout.write(JSON.stringify(routes))
    process.exit(0)`
  const output = execFileSync('node', ['--input-type=module', '-e', script], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, NODE_ENV: 'production' },
    timeout: 60_000,
  })
  return JSON.parse(output) as SiteRoute[]
}

/** The bare app's route tree: the site's paths, one file per route, from the templates. */
function routeTree(routes: SiteRoute[]) {
  const files = new Map<string, string>()
  const entries = new Map<string, Entry>()
  routes.forEach((route, i) => {
    if (route.id === 'root') return
    const file = `routes/r${i}.${route.page ? 'tsx' : 'ts'}`
    files.set(file, route.page ? 'page.tsx' : 'resource.ts')
    entries.set(route.id, {
      id: route.id,
      file,
      ...(route.path === undefined ? {} : { path: route.path }),
      ...(route.index ? { index: true } : {}),
    })
  })
  const top: Entry[] = []
  for (const route of routes) {
    const entry = entries.get(route.id)
    if (!entry) continue
    const parent = route.parentId === 'root' ? undefined : entries.get(route.parentId ?? '')
    if (parent) (parent.children ??= []).push(entry)
    else top.push(entry)
  }
  return { files, top, entries }
}

/** The running bare app; `routes` in all and of them `pages` (the rest are resource routes). */
export type BareApp = Awaited<ReturnType<typeof startBareApp>>

/**
 * Generates and builds the bare app (again only when the routes, templates or content changed);
 * with `content`, the routes of those pages render the site's answers (bench/content.ts).
 */
export function buildBareApp(say: (line: string) => void, content: readonly Snapshot[] = []) {
  const folder = folderFor(content)
  const routes = siteRoutes()
  const { files, top, entries } = routeTree(routes)
  const generated = new Map<string, string>()
  for (const [i, snapshot] of content.entries()) {
    const file = entries.get(snapshot.routeId)?.file
    if (!file?.endsWith('.tsx'))
      throw new Error(`${snapshot.path}: no route ${snapshot.routeId} in the site's build`)
    files.delete(file)
    const json = `content-${i}.json`
    generated.set(`routes/${json}`, JSON.stringify({ tree: snapshot.tree, data: snapshot.data }))
    generated.set(file, contentModule(json))
  }
  const ownPackage = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>
  }
  const versions = Object.fromEntries(
    ['@remix-run/node', '@remix-run/react', 'isbot', 'react', 'react-dom'].map((name) => [
      name,
      ownPackage.dependencies[name],
    ]),
  )
  const remix = (
    JSON.parse(
      readFileSync(path.join(root, 'node_modules/@remix-run/react/package.json'), 'utf8'),
    ) as { version: string }
  ).version
  const templateTexts = [
    ...['root.tsx', 'page.tsx', 'resource.ts', 'vite.config.ts'].map((name) =>
      path.join(templates, name),
    ),
    path.join(templates, 'content.tsx'),
    path.join(root, 'vite.config.ts'),
  ].map((file) => readFileSync(file, 'utf8'))
  const stamp = createHash('sha256')
    .update(JSON.stringify({ top, versions, remix, templateTexts, generated: [...generated] }))
    .digest('hex')
  const stampFile = path.join(folder, 'stamp')
  const pages = routes.filter((route) => route.page && route.id !== 'root').length
  const summary = { routes: routes.length - 1, pages, folder }
  if (existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp) return summary

  say(
    `building the bare Remix ${remix} app: ${summary.routes} routes, ${pages} pages and ${summary.routes - pages} resource routes, as the site's...`,
  )
  rmSync(folder, { recursive: true, force: true })
  mkdirSync(path.join(folder, 'app/routes'), { recursive: true })
  // The Remix plugin reads the runtime and isbot from the app's package.json (all installed).
  writeFileSync(
    path.join(folder, 'package.json'),
    JSON.stringify({ name: 'bench-bare', private: true, type: 'module', dependencies: versions }),
  )
  copyFileSync(path.join(templates, 'root.tsx'), path.join(folder, 'app/root.tsx'))
  for (const [file, template] of files)
    copyFileSync(path.join(templates, template), path.join(folder, 'app', file))
  if (content.length) {
    copyFileSync(path.join(templates, 'content.tsx'), path.join(folder, 'app/content.tsx'))
    for (const [file, text] of generated) writeFileSync(path.join(folder, 'app', file), text)
  }
  writeFileSync(
    path.join(folder, 'app/routes.ts'),
    `export default ${JSON.stringify(top, null, 2)}\n`,
  )
  const config = path.join(templates, 'vite.config.ts')
  execFileSync(path.join(root, 'node_modules/.bin/remix'), ['vite:build', '--config', config], {
    cwd: folder,
    // Its output only when it fails (the error carries it): every resource route is an empty chunk.
    stdio: 'pipe',
    env: { ...process.env, NODE_ENV: 'production' },
  })
  writeFileSync(stampFile, stamp)
  return summary
}

/** Builds the bare app if needed and starts its server with the site's node options. */
export async function startBareApp(say: (line: string) => void, content: readonly Snapshot[] = []) {
  const summary = buildBareApp(say, content)
  const server = await startServerProcess(path.join(templates, 'server.ts'), [summary.folder], {
    execArgv: [...process.execArgv, ...SERVER_NODE_ARGS],
    env: { ...process.env, NODE_ENV: 'production' },
  })
  return { ...server, ...summary }
}
