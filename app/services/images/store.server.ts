import { randomBytes } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { mkdir, rename, stat, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { Readable } from 'node:stream'
import {
  GetObjectCommand,
  HeadObjectCommand,
  NotFound,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3'
import { getEnv, type ImageSettings } from '~/utils/env.server.ts'

// Where product images are kept (IMAGE_STORE): files under DATA_DIR/images (a volume in the
// container; several instances share it as one volume), or an S3-compatible bucket for instances
// that share no folder. A file is named by its image's key and width (`key/480.webp`) and never
// changes once written.

/** A kept file: its bytes as they are read, and its length. */
export type StoredFile = { body: Readable; size: number }

/** How long a product image's file is kept by browsers and proxies: its content never changes. */
export const IMAGE_CACHE_CONTROL = 'public, max-age=31536000, immutable'

export type ImageStore = {
  /** Whether `file` is kept. */
  has(file: string): Promise<boolean>
  /** Keeps `data` as `file`, whole or not at all. */
  put(file: string, data: Buffer): Promise<void>
  /** The file, or null when it is not kept. */
  get(file: string): Promise<StoredFile | null>
}

const FILE = /^[0-9a-z-]+\/\d+\.(webp|jpg)$/

/** Whether `file` is a name the store can hold (and a request may ask for). */
export function isImageFile(file: string) {
  return FILE.test(file)
}

function checked(file: string) {
  if (!isImageFile(file)) throw new Error(`not an image file: ${file}`)
  return file
}

export const contentTypeOf = (file: string) =>
  file.endsWith('.webp') ? 'image/webp' : 'image/jpeg'

/** The folder of the kept images (DATA_DIR/images). */
export function imagesDir(dataDir = getEnv().DATA_DIR) {
  return path.resolve(dataDir, 'images')
}

/** Files in the folder `dir`; a file is written beside its name and renamed into place. */
export function folderStore(dir: string): ImageStore {
  return {
    async has(file) {
      try {
        return (await stat(path.join(dir, checked(file)))).isFile()
      } catch {
        return false
      }
    },
    async put(file, data) {
      const target = path.join(dir, checked(file))
      await mkdir(path.dirname(target), { recursive: true })
      const temporary = `${target}.${randomBytes(6).toString('hex')}.tmp`
      await writeFile(temporary, data)
      await rename(temporary, target)
    },
    async get(file) {
      const target = path.join(dir, checked(file))
      try {
        const { size } = await stat(target)
        return { body: createReadStream(target), size }
      } catch {
        return null
      }
    },
  }
}

/** Objects `images/{file}` in an S3-compatible bucket; a PUT is whole or not at all. */
export function bucketStore(settings: ImageSettings): ImageStore {
  const client = new S3Client({
    region: settings.S3_REGION,
    endpoint: settings.S3_ENDPOINT,
    forcePathStyle: settings.S3_FORCE_PATH_STYLE,
    credentials:
      settings.S3_ACCESS_KEY_ID && settings.S3_SECRET_ACCESS_KEY
        ? {
            accessKeyId: settings.S3_ACCESS_KEY_ID,
            secretAccessKey: settings.S3_SECRET_ACCESS_KEY,
          }
        : undefined,
  })
  const Bucket = settings.S3_BUCKET ?? ''
  const keyOf = (file: string) => `images/${checked(file)}`
  const missing = (error: unknown) => error instanceof NotFound || error instanceof NoSuchKey
  return {
    async has(file) {
      try {
        await client.send(new HeadObjectCommand({ Bucket, Key: keyOf(file) }))
        return true
      } catch (error) {
        if (missing(error)) return false
        throw error
      }
    },
    async put(file, data) {
      await client.send(
        new PutObjectCommand({
          Bucket,
          Key: keyOf(file),
          Body: data,
          ContentType: contentTypeOf(file),
          CacheControl: IMAGE_CACHE_CONTROL,
        }),
      )
    },
    async get(file) {
      try {
        const object = await client.send(new GetObjectCommand({ Bucket, Key: keyOf(file) }))
        if (!(object.Body instanceof Readable)) throw new Error('S3 answered no stream')
        return { body: object.Body, size: object.ContentLength ?? 0 }
      } catch (error) {
        if (missing(error)) return null
        throw error
      }
    },
  }
}

/** The store the settings name. */
export function imageStoreOf(settings: ImageSettings): ImageStore {
  return settings.IMAGE_STORE === 's3'
    ? bucketStore(settings)
    : folderStore(imagesDir(settings.DATA_DIR))
}

let store: ImageStore | undefined
/** This process's store (IMAGE_STORE). */
export function getImageStore(): ImageStore {
  store ??= imageStoreOf(getEnv())
  return store
}
