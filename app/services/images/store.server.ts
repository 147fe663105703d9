import { randomBytes } from 'node:crypto'
import { mkdir, rename, stat, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { getEnv } from '~/utils/env.server.ts'

// Where product images are kept: files under DATA_DIR/images (a volume in the container), served
// by the web server as they are (server/app.ts, `/images`). Several instances share them through
// a shared volume.

/** The folder of the kept images (DATA_DIR/images). */
export function imagesDir(dataDir = getEnv().DATA_DIR) {
  return path.resolve(dataDir, 'images')
}

/** `file` (a key's folder and a file name, `key/480.webp`) inside the images folder `dir`. */
function pathOf(dir: string, file: string) {
  if (!/^[0-9a-z-]+\/\d+\.(webp|jpg)$/.test(file)) throw new Error(`not an image file: ${file}`)
  return path.join(dir, file)
}

/** Whether `file` is kept in the images folder `dir`. */
export async function hasImageFile(dir: string, file: string) {
  try {
    return (await stat(pathOf(dir, file))).isFile()
  } catch {
    return false
  }
}

/**
 * Keeps `data` as `file` in the images folder `dir`, whole or not at all: written beside it and then renamed, so a reader
 * never sees half a file and two writers of the same content leave one.
 */
export async function putImageFile(dir: string, file: string, data: Buffer) {
  const target = pathOf(dir, file)
  await mkdir(path.dirname(target), { recursive: true })
  const temporary = `${target}.${randomBytes(6).toString('hex')}.tmp`
  await writeFile(temporary, data)
  await rename(temporary, target)
}
