import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import sharp from 'sharp'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { longPng } from '../../../tests/support/images.ts'
import { storedImage } from '~/utils/product-image.ts'
import {
  MAX_IMAGE_BYTES,
  MAX_IMAGE_SIDE,
  storeProductImage as storeIn,
} from '~/services/images/product-image.server.ts'
import { folderStore, type ImageStore } from '~/services/images/store.server.ts'
import { DomainError } from '~/utils/domain-error.ts'

// Uploads become product images: checked by content, kept upright in their widths as WebP and
// JPEG, once per content. Real sharp, real files in a folder of this test's own.
let dataDir: string
let store: ImageStore
beforeAll(() => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'images-'))
  store = folderStore(path.join(dataDir, 'images'))
})
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

/** A picture like a photograph: soft shapes and a gradient, not flat colour. */
async function photo(width: number, height: number, format: 'png' | 'jpeg' = 'png') {
  const noise = await sharp({
    create: {
      width,
      height,
      channels: 3,
      background: '#808080',
      noise: { type: 'gaussian', mean: 128, sigma: 60 },
    },
  })
    .blur(3)
    .raw()
    .toBuffer()
  const image = sharp(noise, { raw: { width, height, channels: 3 } })
  return format === 'png' ? image.png().toBuffer() : image.jpeg({ quality: 90 }).toBuffer()
}

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) =>
      error instanceof DomainError ? { key: error.key, status: error.status } : error,
  )

const storeProductImage = (bytes: Uint8Array) => storeIn(bytes, store)

const filesOf = (key: string) => readdirSync(path.join(dataDir, 'images', key)).sort()

test('an upload is kept in each width up to 1200 px as WebP and JPEG, once per content', async () => {
  const source = await photo(2000, 1500)
  const stored = await storeProductImage(source)
  expect(stored).toMatchObject({ width: 1200, height: 900 })
  const image = storedImage(stored.imageUrl)!
  expect(image).toMatchObject({ width: 1200, height: 900, widths: [240, 480, 800, 1200] })
  expect(stored.imageUrl).toBe(`/images/${image.key}/1200.jpg`)
  expect(filesOf(image.key)).toEqual([
    '1200.jpg',
    '1200.webp',
    '240.jpg',
    '240.webp',
    '480.jpg',
    '480.webp',
    '800.jpg',
    '800.webp',
  ])
  for (const [file, format, width] of [
    ['480.webp', 'webp', 480],
    ['480.jpg', 'jpeg', 480],
    ['1200.jpg', 'jpeg', 1200],
  ] as const) {
    const meta = await sharp(path.join(dataDir, 'images', image.key, file)).metadata()
    expect(meta).toMatchObject({ format, width })
  }
  // What a phone's card loads (at most 480 px wide) stays small for a photograph.
  const card = readFileSync(path.join(dataDir, 'images', image.key, '480.webp'))
  expect(card.byteLength).toBeLessThan(30 * 1024)
  // The same content again is the same image.
  expect(await storeProductImage(source)).toEqual(stored)
})

test('a small picture is kept at its own width only; a turned photograph stands upright', async () => {
  const small = await storeProductImage(await photo(200, 100))
  expect(storedImage(small.imageUrl)).toMatchObject({ width: 200, height: 100, widths: [200] })
  // EXIF orientation 6: stored 600 x 400, shown 400 x 600.
  const turned = await sharp(await photo(600, 400, 'jpeg'))
    .withMetadata({ orientation: 6 })
    .jpeg()
    .toBuffer()
  const upright = await storeProductImage(turned)
  expect(upright).toMatchObject({ width: 400, height: 600 })
  const key = storedImage(upright.imageUrl)!.key
  const meta = await sharp(path.join(dataDir, 'images', key, '400.jpg')).metadata()
  expect(meta).toMatchObject({ width: 400, height: 600 })
  expect(meta.orientation ?? 1).toBe(1)
})

test('what is not a JPEG, PNG or WebP picture, or is too large, is refused with its reason', async () => {
  const text = new TextEncoder().encode('not a picture, only text named photo.jpg')
  expect(await refusal(storeProductImage(text))).toEqual({ key: 'errors.imageType', status: 400 })
  const svg = new TextEncoder().encode(
    '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>',
  )
  expect(await refusal(storeProductImage(svg))).toEqual({ key: 'errors.imageType', status: 400 })
  const gif = await sharp({
    create: { width: 10, height: 10, channels: 3, background: '#f00' },
  })
    .gif()
    .toBuffer()
  expect(await refusal(storeProductImage(gif))).toEqual({ key: 'errors.imageType', status: 400 })

  const huge = new Uint8Array(MAX_IMAGE_BYTES + 1)
  expect(await refusal(storeProductImage(huge))).toEqual({
    key: 'errors.imageTooLarge',
    status: 413,
  })
  // 8000 x 6000 is 48 megapixels: refused from its header, before it is decoded.
  const wide = await sharp({
    create: { width: 8000, height: 6000, channels: 3, background: '#fff' },
  })
    .png({ compressionLevel: 1 })
    .toBuffer()
  expect(await refusal(storeProductImage(wide))).toEqual({
    key: 'errors.imagePixels',
    status: 400,
  })
  // A JPEG cut off half way.
  const whole = await photo(800, 600, 'jpeg')
  const cut = whole.subarray(0, Math.floor(whole.byteLength / 2))
  expect(await refusal(storeProductImage(cut))).toEqual({ key: 'errors.imageBroken', status: 400 })
})

test('a picture longer than the cap on either side is refused from its header, few pixels or not', async () => {
  // 1 x 40,000,000 holds no more pixels than the cap on pixels, and no WebP can hold it: it
  // used to be decoded for seconds and end in an error that was no refusal (a 500).
  const started = Date.now()
  for (const [width, height] of [
    [1, 40_000_000],
    [40_000_000, 1],
    [MAX_IMAGE_SIDE + 1, 1],
    [1, MAX_IMAGE_SIDE + 1],
  ] as const) {
    expect(await refusal(storeProductImage(longPng(width, height)))).toEqual({
      key: 'errors.imageSide',
      status: 400,
    })
  }
  expect(Date.now() - started).toBeLessThan(5_000)
  // A long side at the cap is taken.
  const long = await sharp({
    create: { width: MAX_IMAGE_SIDE, height: 3, channels: 3, background: '#345' },
  })
    .png()
    .toBuffer()
  expect(await storeProductImage(long)).toMatchObject({ width: 1200, height: 1 })
})
