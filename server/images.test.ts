import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, get, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3'
import express from 'express'
import S3rver from 's3rver'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { storeProductImage } from '../app/services/images/product-image.server.ts'
import {
  bucketStore,
  folderStore,
  IMAGE_CACHE_CONTROL,
  type ImageStore,
} from '../app/services/images/store.server.ts'
import { parseImageSettings } from '../app/utils/env.server.ts'
import { serveImages } from './images.ts'

// Product images are kept and served the same way from a folder and from an S3-compatible
// bucket (a local S3 server here): each width's file with its type, length and year-long
// caching, 304 for a browser that has it, the app's 404 for anything else.
const dir = mkdtempSync(path.join(tmpdir(), 'served-images-'))
const bucketServer = new S3rver({
  address: '127.0.0.1',
  port: 0,
  silent: true,
  directory: path.join(dir, 's3'),
})
let s3Endpoint = ''

beforeAll(async () => {
  const { port } = await bucketServer.run()
  s3Endpoint = `http://127.0.0.1:${port}`
  const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' }
  const client = new S3Client({
    endpoint: s3Endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials,
  })
  await client.send(new CreateBucketCommand({ Bucket: 'product-images' }))
})
afterAll(async () => {
  await bucketServer.close()
  rmSync(dir, { recursive: true, force: true })
})

/** The app's order: the images, then everything else (here a plain 404). */
async function site(store: ImageStore) {
  const app = express()
  app.use('/images', serveImages(store))
  app.use((_req, res) => void res.status(404).send('not found'))
  const server: Server = createServer(app)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }
}

const stores: Array<[string, () => ImageStore]> = [
  ['a folder', () => folderStore(path.join(dir, 'folder'))],
  [
    'an S3-compatible bucket',
    () =>
      bucketStore(
        parseImageSettings({
          IMAGE_STORE: 's3',
          S3_ENDPOINT: s3Endpoint,
          S3_BUCKET: 'product-images',
          S3_ACCESS_KEY_ID: 'S3RVER',
          S3_SECRET_ACCESS_KEY: 'S3RVER',
        }),
      ),
  ],
]

describe.each(stores)('images kept in %s', (_name, storeOf) => {
  test('each width is served with its type and year-long caching; what is not kept is a 404', async () => {
    const store = storeOf()
    const picture = await sharp({
      create: { width: 640, height: 480, channels: 3, background: '#3b82f6' },
    })
      .png()
      .toBuffer()
    const { imageUrl } = await storeProductImage(picture, store)
    expect(await store.has(imageUrl.replace('/images/', ''))).toBe(true)
    const { server, base } = await site(store)
    try {
      const key = imageUrl.split('/')[2]!
      const webp = await fetch(`${base}/images/${key}/480.webp`)
      expect(webp.status).toBe(200)
      expect(webp.headers.get('content-type')).toBe('image/webp')
      expect(webp.headers.get('cache-control')).toBe(IMAGE_CACHE_CONTROL)
      const body = Buffer.from(await webp.arrayBuffer())
      expect(Number(webp.headers.get('content-length'))).toBe(body.byteLength)
      expect((await sharp(body).metadata()).width).toBe(480)

      const jpeg = await fetch(`${base}${imageUrl}`)
      expect(jpeg.headers.get('content-type')).toBe('image/jpeg')
      expect((await sharp(Buffer.from(await jpeg.arrayBuffer())).metadata()).width).toBe(640)

      // As a browser revalidates (fetch would add `Cache-Control: no-cache` to the request).
      const again = await new Promise<number>((resolve, reject) => {
        get(
          `${base}/images/${key}/480.webp`,
          { headers: { 'If-None-Match': webp.headers.get('etag')! } },
          (answer) => {
            answer.resume()
            resolve(answer.statusCode ?? 0)
          },
        ).on('error', reject)
      })
      expect(again).toBe(304)
      const head = await fetch(`${base}/images/${key}/240.jpg`, { method: 'HEAD' })
      expect(head.status).toBe(200)
      expect(Number(head.headers.get('content-length'))).toBeGreaterThan(0)

      for (const missing of [
        `/images/${key}/800.webp`,
        '/images/0000000000000000000a-10x10/10.jpg',
        `/images/${key}/480.png`,
        '/images/../package.json',
      ]) {
        expect((await fetch(`${base}${missing}`)).status, missing).toBe(404)
      }
    } finally {
      server.close()
    }
  })
})

test('the S3 store is refused at start without a bucket, or with half its credentials', () => {
  expect(() => parseImageSettings({ IMAGE_STORE: 's3' })).toThrow(/S3_BUCKET: is required/)
  expect(() =>
    parseImageSettings({ IMAGE_STORE: 's3', S3_BUCKET: 'images', S3_ACCESS_KEY_ID: 'x' }),
  ).toThrow(/give both or neither/)
  expect(() => parseImageSettings({ IMAGE_STORE: 'ftp' })).toThrow(/IMAGE_STORE/)
})
