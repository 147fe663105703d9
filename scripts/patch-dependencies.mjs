// Fixes applied to dependencies after every install (npm's postinstall, and the Dockerfile).
// Each is idempotent and fails loudly when the code it expects is not there, so an upgrade
// that changes it is noticed.
//
// - react-dom: React 18.3's streaming server renderer flushes its whole 2048-byte buffer when
//   the next string does not fit, including bytes it did not write this time: a multi-byte
//   (Cyrillic) character on the boundary then leaves a stale byte in the page (seen as U+FFFD
//   in labels and text). The fix, as in later React versions, is to flush only the written part.
// - react-dom (production server renderer): every piece of markup (a tag, an attribute's name,
//   its value) was encoded to UTF-8 on its own into the 2048-byte buffer, a native call and a
//   new view per piece, and its fixed pieces (`<div`, ` class="`) were bytes copied in one by
//   one: ~20 % of the CPU of a signed-in page with a hundred cards. The fixed pieces are now
//   kept as strings, and all pieces are gathered and encoded together, 8 KiB of text at a time
//   and at the end of each write: the same bytes reach the stream, in the same order.
// - @remix-run/router (server build): matching a URL flattened and ranked the whole route tree
//   on every call, twice per request; that was 15 % of the server's CPU per bid
//   (docs/performance.md). The route tree never changes while the server runs, so the ranked
//   branches are kept per tree, and each route pattern's regular expression is made once.
// - @remix-run/react and react-router-dom (server): every page made the route objects of the
//   whole app afresh (Remix's server routes, then the static router's data routes), so the
//   kept ranking of the route tree above never applied to them and was redone for each page.
//   They depend only on the build (its route manifest and route modules; the map of the modules
//   is made afresh per request, its modules are the build's), so they are kept per build.
import { readFileSync, writeFileSync } from 'node:fs'
import process from 'node:process'
import { createRequire } from 'node:module'
import path from 'node:path'

const require = createRequire(import.meta.url)
const inPackage = (name, file) =>
  path.join(path.dirname(require.resolve(`${name}/package.json`)), file)
const patches = [
  {
    file: inPackage('react-dom', 'cjs/react-dom-server.node.production.min.js'),
    from: 'd<b.length&&(t(a,k),k=new Uint8Array(2048)',
    to: 'd<b.length&&(t(a,k.subarray(0,l)),k=new Uint8Array(2048)',
  },
  {
    file: inPackage('react-dom', 'cjs/react-dom-server.node.development.js'),
    from: 'if (read < stringChunk.length) {\n    writeToDestination(destination, currentView);',
    to: 'if (read < stringChunk.length) {\n    writeToDestination(destination, currentView.subarray(0, writtenBytes));',
  },
  {
    file: inPackage('react-dom', 'cjs/react-dom-server.node.production.min.js'),
    from: 'function r(a,b){if("string"===typeof b){if(0!==b.length)if(2048<3*b.length)',
    to: 'var __pendingText="";function r(a,b){if("string"===typeof b){__pendingText+=b;8192<__pendingText.length&&__flushText(a)}else{__pendingText&&__flushText(a);__writeBytes(a,b)}}function __flushText(a){var s=__pendingText;__pendingText="";__writeBytes(a,u.encode(s))}function __writeBytes(a,b){if("string"===typeof b){if(0!==b.length)if(2048<3*b.length)',
  },
  {
    file: inPackage('react-dom', 'cjs/react-dom-server.node.production.min.js'),
    from: 'function ca(a){k&&0<l&&a.write(k.subarray(0,l));',
    to: 'function ca(a){__pendingText&&__flushText(a);k&&0<l&&a.write(k.subarray(0,l));',
  },
  {
    file: inPackage('react-dom', 'cjs/react-dom-server.node.production.min.js'),
    from: 'function x(a){return u.encode(a)}',
    to: 'function x(a){return a}',
  },
  {
    file: inPackage('@remix-run/router', 'dist/router.cjs.js'),
    from: 'function matchRoutesImpl(routes, locationArg, basename, allowPartial) {\n  let location = typeof locationArg === "string" ? parsePath(locationArg) : locationArg;\n  let pathname = stripBasename(location.pathname || "/", basename);\n  if (pathname == null) {\n    return null;\n  }\n  let branches = flattenRoutes(routes);\n  rankRouteBranches(branches);\n',
    to: 'const rankedBranches = new WeakMap();\nfunction matchRoutesImpl(routes, locationArg, basename, allowPartial) {\n  let location = typeof locationArg === "string" ? parsePath(locationArg) : locationArg;\n  let pathname = stripBasename(location.pathname || "/", basename);\n  if (pathname == null) {\n    return null;\n  }\n  let branches = rankedBranches.get(routes);\n  if (!branches) {\n    branches = flattenRoutes(routes);\n    rankRouteBranches(branches);\n    rankedBranches.set(routes, branches);\n  }\n',
  },
  {
    file: inPackage('@remix-run/router', 'dist/router.cjs.js'),
    from: 'function compilePath(path, caseSensitive, end) {\n  if (caseSensitive === void 0) {',
    to: 'const compiledPaths = new Map();\nfunction compilePath(path, caseSensitive, end) {\n  let key = path + "\\0" + caseSensitive + "\\0" + end;\n  let compiled = compiledPaths.get(key);\n  if (!compiled) {\n    compiled = compilePathOnce(path, caseSensitive, end);\n    compiledPaths.set(key, compiled);\n  }\n  return compiled;\n}\nfunction compilePathOnce(path, caseSensitive, end) {\n  if (caseSensitive === void 0) {',
  },
  {
    file: inPackage('@remix-run/react', 'dist/server.js'),
    from: 'function RemixServer({',
    to: 'const keptServerRoutes = new WeakMap();\nfunction sameModules(a, b) {\n  if (a === b) return true;\n  let keys = Object.keys(a);\n  if (keys.length !== Object.keys(b).length) return false;\n  for (let key of keys) if (a[key] !== b[key]) return false;\n  return true;\n}\nfunction serverRoutesOf(manifestRoutes, routeModules, future, isSpaMode) {\n  let kept = keptServerRoutes.get(manifestRoutes);\n  if (!kept || !sameModules(kept.routeModules, routeModules) || kept.future !== future || kept.isSpaMode !== isSpaMode) {\n    kept = { routeModules, future, isSpaMode, routes: routes.createServerRoutes(manifestRoutes, routeModules, future, isSpaMode) };\n    keptServerRoutes.set(manifestRoutes, kept);\n  }\n  return kept.routes;\n}\nfunction RemixServer({',
  },
  {
    file: inPackage('@remix-run/react', 'dist/server.js'),
    from: 'let routes$1 = routes.createServerRoutes(manifest.routes, routeModules, context.future, context.isSpaMode);',
    to: 'let routes$1 = serverRoutesOf(manifest.routes, routeModules, context.future, context.isSpaMode);',
  },
  {
    file: inPackage('react-router-dom', 'server.js'),
    from: 'function createStaticRouter(routes, context, opts = {}) {\n  let manifest = {};\n  let dataRoutes = router.UNSAFE_convertRoutesToDataRoutes(routes, reactRouter.UNSAFE_mapRouteProperties, undefined, manifest);',
    to: 'const keptDataRoutes = new WeakMap();\nfunction createStaticRouter(routes, context, opts = {}) {\n  let kept = keptDataRoutes.get(routes);\n  if (!kept) {\n    let manifest = {};\n    kept = { manifest, dataRoutes: router.UNSAFE_convertRoutesToDataRoutes(routes, reactRouter.UNSAFE_mapRouteProperties, undefined, manifest) };\n    keptDataRoutes.set(routes, kept);\n  }\n  let { manifest, dataRoutes } = kept;',
  },
]
for (const { file, from, to } of patches) {
  const source = readFileSync(file, 'utf8')
  if (source.includes(to)) continue
  if (!source.includes(from)) throw new Error(`patch-dependencies: unexpected code in ${file}`)
  writeFileSync(file, source.replace(from, to))
  process.stdout.write(`patch-dependencies: patched ${path.relative(process.cwd(), file)}\n`)
}
