import { mkdirSync } from 'node:fs'
import path from 'node:path'
import sharp from 'sharp'

// Draws the installed app's icons (app/utils/web-app.ts) from public/favicon.svg into
// public/icons/: run it again after changing the favicon (`npm run icons`), and commit the PNGs.
// The maskable icon keeps the mark inside the safe zone (the middle 80 %) on the brand colour.

const root = path.resolve(import.meta.dirname, '..')
const svg = path.join(root, 'public/favicon.svg')
const out = path.join(root, 'public/icons')
mkdirSync(out, { recursive: true })

async function icon(size: number, file: string) {
  await sharp(svg, { density: (72 * size) / 32 })
    .resize(size, size)
    .png({ compressionLevel: 9 })
    .toFile(path.join(out, file))
}

/** The mark at `ratio` of the size on a square of the brand colour (no transparent corners). */
async function onBrand(size: number, ratio: number, file: string) {
  const inner = Math.round(size * ratio)
  const mark = await sharp(svg, { density: (72 * inner) / 32 })
    .resize(inner, inner)
    .png()
    .toBuffer()
  await sharp({
    create: { width: size, height: size, channels: 4, background: '#d97706' },
  })
    .composite([{ input: mark, gravity: 'centre' }])
    .png({ compressionLevel: 9 })
    .toFile(path.join(out, file))
}

await icon(192, 'icon-192.png')
await icon(512, 'icon-512.png')
// iOS fills transparent corners with black: its icon is a full square.
await onBrand(180, 0.9, 'apple-touch-icon.png')
await onBrand(512, 0.7, 'maskable-512.png')
console.log(`icons written to ${path.relative(root, out)}/`)
