import { createHash } from 'node:crypto'
import sharp from 'sharp'
import { getImageStore, type ImageStore } from '~/services/images/store.server.ts'
import { DomainError } from '~/utils/domain-error.ts'
import {
  imageFileUrl,
  imageKey,
  MAX_IMAGE_WIDTH,
  widthsOf,
  type ImageFormat,
} from '~/utils/product-image.ts'

// An admin's upload becomes a product image (docs/rules.md#product-images): checked by its
// content (JPEG, PNG or WebP; at most MAX_IMAGE_BYTES, MAX_IMAGE_PIXELS and MAX_IMAGE_SIDE on
// each side), turned upright,
// stripped of its metadata and kept in the widths of app/utils/product-image.ts as WebP and JPEG.

/** The largest file taken. */
export const MAX_IMAGE_BYTES = 8 * 1024 * 1024
/** The most pixels a file may hold (checked before it is decoded). */
export const MAX_IMAGE_PIXELS = 40_000_000
/**
 * The longest side a file may have (checked before it is decoded): a sliver of few pixels but
 * tens of thousands long costs seconds to decode and is beyond what WebP can hold (16,383).
 */
export const MAX_IMAGE_SIDE = 10_000

const FORMATS = new Set(['jpeg', 'png', 'webp'])

/** An upload that is not taken: the text key ("admin" namespace) that says why, 400 or `status`. */
const refused = (
  key:
    | 'errors.imageType'
    | 'errors.imageTooLarge'
    | 'errors.imagePixels'
    | 'errors.imageSide'
    | 'errors.imageBroken',
  status = 400,
) => new DomainError(status, key)

const encoders: Record<ImageFormat, (image: sharp.Sharp) => sharp.Sharp> = {
  webp: (image) => image.webp({ quality: 72, effort: 4 }),
  // Transparency (a PNG's) becomes white, the pages' background.
  jpg: (image) =>
    image
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 76, mozjpeg: true, progressive: true }),
}

/**
 * Keeps an uploaded file as a product image (in `store`) and returns its
 * `imageUrl` (the largest JPEG) with its width and height. The same content uploaded again is the
 * same image, kept once.
 */
export async function storeProductImage(bytes: Uint8Array, store: ImageStore = getImageStore()) {
  if (bytes.byteLength > MAX_IMAGE_BYTES) throw refused('errors.imageTooLarge', 413)
  const input = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  let metadata: sharp.Metadata
  try {
    metadata = await sharp(input).metadata()
  } catch {
    throw refused('errors.imageType')
  }
  if (!FORMATS.has(metadata.format ?? '')) throw refused('errors.imageType')
  const { width: storedWidth, height: storedHeight } = metadata
  if (!storedWidth || !storedHeight) throw refused('errors.imageBroken')
  if (storedWidth > MAX_IMAGE_SIDE || storedHeight > MAX_IMAGE_SIDE)
    throw refused('errors.imageSide')
  if (storedWidth * storedHeight > MAX_IMAGE_PIXELS) throw refused('errors.imagePixels')
  // EXIF orientations 5 to 8 turn the picture a quarter: width and height trade places.
  const turned = (metadata.orientation ?? 1) >= 5
  const [sourceWidth, sourceHeight] = turned
    ? [storedHeight, storedWidth]
    : [storedWidth, storedHeight]
  const width = Math.min(sourceWidth, MAX_IMAGE_WIDTH)
  const height = Math.max(1, Math.round((sourceHeight * width) / sourceWidth))
  const hash = createHash('sha256').update(input).digest('hex').slice(0, 20)
  const key = imageKey(hash, width, height)
  const imageUrl = imageFileUrl(key, width, 'jpg')
  const answer = { imageUrl, width, height }
  // The largest JPEG is written last: when it is there, the image is whole.
  if (await store.has(`${key}/${width}.jpg`)) return answer

  let largest: { data: Buffer; info: sharp.OutputInfo }
  try {
    largest = await sharp(input, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'truncated' })
      .rotate()
      .resize({ width, height, fit: 'fill' })
      .raw()
      .toBuffer({ resolveWithObject: true })
  } catch {
    throw refused('errors.imageBroken')
  }
  const raw = {
    width: largest.info.width,
    height: largest.info.height,
    channels: largest.info.channels,
  }
  for (const size of widthsOf(width)) {
    for (const format of ['webp', 'jpg'] as const) {
      let image = sharp(largest.data, { raw })
      if (size < width) image = image.resize({ width: size })
      await store.put(`${key}/${size}.${format}`, await encoders[format](image).toBuffer())
    }
  }
  return answer
}
