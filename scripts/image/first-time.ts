// What the image test would do for the first time on this machine (scripts/test-image.ts):
// `npm test` says so at its start, with about how long it takes.
import { existsSync } from 'node:fs'
import { localBaseTag } from './base.ts'
import { IMAGE, imageExists, missingPackages } from './podman.ts'

export async function imageFirstTime(): Promise<string[]> {
  const missing = missingPackages()
  const work: string[] = []
  if (missing.length) work.push(`install ${missing.join(', ')} for the container image test`)
  const podman = existsSync('/usr/bin/podman')
  if (!process.env.NODE_IMAGE && !(podman && (await imageExists(localBaseTag().tag)))) {
    work.push("make the container image's base with debootstrap")
  }
  if (!(podman && (await imageExists(`${IMAGE}-deps`)))) {
    work.push("install the image's npm packages in a layer kept for later runs")
  }
  return work
}
