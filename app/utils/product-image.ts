// Product images uploaded by admins (docs/rules.md#product-images). Each is kept in a few widths,
// as WebP and as JPEG, under /images/{key}/{width}.{webp|jpg}, where the key is the content's
// hash and the largest width and height (`3f…-1200x900`). The auction's `imageUrl` is the largest
// JPEG, an address any client can show; pages derive the other widths from it for `srcset`.
// An `imageUrl` that is not one of ours (an admin's link) is shown as it is.

/** The widths an image is kept in, at most: smaller ones only up to the image's own width. */
export const IMAGE_WIDTHS = [240, 480, 800, 1200] as const
/** The largest width kept. */
export const MAX_IMAGE_WIDTH = IMAGE_WIDTHS[IMAGE_WIDTHS.length - 1]!

export type ImageFormat = 'webp' | 'jpg'

const OWN_URL = /^\/images\/([0-9a-f]{20}-(\d{1,4})x(\d{1,4}))\/\d{1,4}\.jpg$/

/** An image of ours: its key, its largest width and height and every width it is kept in. */
export type StoredImage = { key: string; width: number; height: number; widths: number[] }

/** The widths kept of an image `width` pixels wide (at most MAX_IMAGE_WIDTH). */
export function widthsOf(width: number): number[] {
  return [...IMAGE_WIDTHS.filter((kept) => kept < width), width]
}

/** The address of one kept file. */
export function imageFileUrl(key: string, width: number, format: ImageFormat) {
  return `/images/${key}/${width}.${format}`
}

/** The key of an image `width` x `height` (its largest kept size) whose content hashes to `hash`. */
export function imageKey(hash: string, width: number, height: number) {
  return `${hash}-${width}x${height}`
}

/** An `imageUrl` of ours, read; null for anything else (an admin's link, none at all). */
export function storedImage(imageUrl: string | null | undefined): StoredImage | null {
  const match = imageUrl ? OWN_URL.exec(imageUrl) : null
  if (!match) return null
  const width = Number(match[2])
  const height = Number(match[3])
  if (!width || !height || width > MAX_IMAGE_WIDTH) return null
  return { key: match[1]!, width, height, widths: widthsOf(width) }
}

/** `srcset` of an image in one format, with the widths up to `maxWidth` (the smallest always). */
export function imageSrcSet(image: StoredImage, format: ImageFormat, maxWidth: number) {
  return widthsUpTo(image, maxWidth)
    .map((width) => `${imageFileUrl(image.key, width, format)} ${width}w`)
    .join(', ')
}

/** The widths of an image that a place `maxWidth` pixels wide may use, at least the smallest. */
export function widthsUpTo(image: StoredImage, maxWidth: number) {
  const fitting = image.widths.filter((width) => width <= maxWidth)
  return fitting.length > 0 ? fitting : image.widths.slice(0, 1)
}

/**
 * An auction card's picture: the whole width of a phone, half or a third of a wider screen;
 * never more than 480 px wide, so that a phone's card loads a small file (< 30 KB).
 */
export const CARD_IMAGE = {
  sizes: '(min-width: 1024px) 33vw, (min-width: 640px) 50vw, 100vw',
  maxWidth: 480,
} as const
/** The auction page's picture: the page's width on a phone, half of it from `lg` on. */
export const PAGE_IMAGE = { sizes: '(min-width: 1024px) 50vw, 100vw', maxWidth: MAX_IMAGE_WIDTH }
/** A thumbnail of a table's row (3.5rem). */
export const THUMBNAIL_IMAGE = { sizes: '56px', maxWidth: 240 } as const
