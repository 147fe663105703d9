import {
  imageFileUrl,
  imageSrcSet,
  storedImage,
  widthsUpTo,
  type StoredImage,
} from '~/utils/product-image.ts'

/**
 * A product's picture. One of ours is a <picture> with WebP and JPEG in the widths that fit the
 * place (`maxWidth` image pixels; `sizes` says how wide it is shown), its size given so the page
 * does not move when it arrives; anything else is the admin's link as it is. Lazy unless `eager`
 * (the picture a page opens with).
 */
export function ProductImage({
  url,
  alt,
  sizes,
  maxWidth,
  eager = false,
  className,
}: {
  url: string
  alt: string
  sizes: string
  maxWidth: number
  eager?: boolean
  className?: string
}) {
  const image = storedImage(url)
  const loading = eager ? 'eager' : 'lazy'
  if (!image) return <img src={url} alt={alt} loading={loading} className={className} />
  return (
    <picture>
      <source type="image/webp" srcSet={imageSrcSet(image, 'webp', maxWidth)} sizes={sizes} />
      <img
        src={fallback(image, maxWidth)}
        srcSet={imageSrcSet(image, 'jpg', maxWidth)}
        sizes={sizes}
        width={image.width}
        height={image.height}
        alt={alt}
        loading={loading}
        decoding="async"
        className={className}
      />
    </picture>
  )
}

/** The JPEG a browser without srcset shows: the largest that fits the place. */
function fallback(image: StoredImage, maxWidth: number) {
  return imageFileUrl(image.key, widthsUpTo(image, maxWidth).at(-1)!, 'jpg')
}
