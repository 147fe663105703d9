import type { Page } from 'playwright-core'
import sharp from 'sharp'
import { describe, expect, test } from 'vitest'
import { base, call, sessionOf } from './api.ts'
import { SEED_PICTURES } from '../../prisma/seed-pictures/index.ts'
import { createAuction, e2eDatabase } from './auctions.ts'
import { open, phone, screenshot, setupBrowser } from './browser.ts'
import { signIn } from './people.ts'

// Product images: an admin uploads a picture in the auction form (with and without JavaScript)
// or through the API; it is served in a few widths as WebP and JPEG with long-lived caching, and
// a phone's card loads a small file. The demo's products have pictures.
const browser = setupBrowser()

/** A picture like a photograph, `width` x `height`, as PNG. */
async function picture(width: number, height: number, hue: number) {
  const noise = await sharp({
    create: {
      width,
      height,
      channels: 3,
      background: { r: hue, g: 120, b: 255 - hue },
      noise: { type: 'gaussian', mean: hue, sigma: 50 },
    },
  })
    .blur(4)
    .raw()
    .toBuffer()
  return sharp(noise, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer()
}

async function adminPage(javaScriptEnabled: boolean) {
  const page = await browser.newPage({ javaScriptEnabled, consented: true })
  await signIn(page, 'admin', 'admin123')
  return page
}

async function adminCookie() {
  const login = await call('/api/auth/login', { body: { username: 'admin', password: 'admin123' } })
  return sessionOf(login.cookie)
}

/** A `datetime-local` value in Bishkek time (UTC+6), `ms` from now. */
const bishkekInput = (ms: number) =>
  new Date(Date.now() + ms + 6 * 3600_000).toISOString().slice(0, 19)

/** The picture of the auction page: what the browser chose to load, and its size. */
async function shownPicture(page: Page, alt: string) {
  const image = page.getByRole('img', { name: alt, exact: true })
  await expect
    .poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth))
    .toBeGreaterThan(0)
  return image.evaluate((img: HTMLImageElement) => ({
    src: img.currentSrc,
    width: img.naturalWidth,
    sources: [...(img.parentElement?.querySelectorAll('source') ?? [])].map((source) => ({
      type: source.type,
      srcset: source.srcset,
    })),
  }))
}

for (const javaScriptEnabled of [true, false]) {
  describe(`an admin uploads a product image (${javaScriptEnabled ? 'JS on' : 'JS off'})`, () => {
    test('a picture is taken with the new auction; a file that is not one is refused, and nothing typed is lost', async () => {
      const page = await adminPage(javaScriptEnabled)
      await open(page, '/admin')
      const title = `Фото ${javaScriptEnabled ? 'js' : 'nojs'} ${Date.now().toString(36)}`
      await page.getByRole('link', { name: 'Создать аукцион' }).click()
      const form = page.getByRole(javaScriptEnabled ? 'dialog' : 'region', {
        name: 'Новый аукцион',
      })
      await form.waitFor()
      await form.getByLabel('Название *').fill(title)
      await form.getByLabel('Розничная цена, сом *').fill('4990')
      await form.getByLabel('Начало (время Бишкека) *').fill(bishkekInput(3600_000))
      // Text named like a photograph.
      await form.getByLabel('Или загрузите изображение').setInputFiles({
        name: 'photo.jpg',
        mimeType: 'image/jpeg',
        buffer: Buffer.from('this is not a picture'),
      })
      await form.getByRole('button', { name: 'Создать', exact: true }).click()
      const refused = page.getByText('Файл не является изображением JPEG, PNG или WebP').first()
      await refused.waitFor()
      const again = page.getByRole(javaScriptEnabled ? 'dialog' : 'region', {
        name: 'Новый аукцион',
      })
      expect(await again.getByLabel('Название *').inputValue()).toBe(title)

      await again.getByLabel('Или загрузите изображение').setInputFiles({
        name: 'photo.png',
        mimeType: 'image/png',
        buffer: await picture(1600, 1200, javaScriptEnabled ? 200 : 60),
      })
      await again.getByRole('button', { name: 'Создать', exact: true }).click()
      await page.getByText(`Аукцион «${title}» создан`).first().waitFor()

      const auction = await e2eDatabase().auction.findFirstOrThrow({
        where: { title },
        select: { slug: true, imageUrl: true },
      })
      expect(auction.imageUrl).toMatch(/^\/images\/[0-9a-f]{20}-1200x900\/1200\.jpg$/)

      const visitor = await browser.newPage({ ...phone, javaScriptEnabled })
      await open(visitor, `/auction/${auction.slug}`)
      const shown = await shownPicture(visitor, title)
      expect(shown.sources).toEqual([
        {
          type: 'image/webp',
          srcset: expect.stringMatching(/\/240\.webp 240w, .*\/1200\.webp 1200w$/),
        },
      ])
      // Chromium takes the WebP.
      expect(shown.src).toMatch(/\.webp$/)
      if (javaScriptEnabled) await screenshot(visitor, 'product-image-auction-phone')
    })
  })
}

describe('the images API and how images are served', () => {
  test('POST /api/admin/images keeps a picture and answers its address; bad files and callers are refused', async () => {
    const cookie = await adminCookie()
    const upload = (body: FormData, who = cookie) =>
      fetch(`${base()}/api/admin/images`, {
        method: 'POST',
        headers: { Cookie: who, 'Accept-Language': 'en' },
        body,
      })
    const form = (bytes: Buffer, type = 'image/png') => {
      const body = new FormData()
      body.set('image', new Blob([new Uint8Array(bytes)], { type }), 'picture.png')
      return body
    }
    const source = await picture(900, 600, 30)
    const kept = await upload(form(source))
    expect(kept.status).toBe(201)
    const answer = (await kept.json()) as { imageUrl: string; width: number; height: number }
    expect(answer).toEqual({
      imageUrl: expect.stringMatching(/^\/images\/[0-9a-f]{20}-900x600\/900\.jpg$/),
      width: 900,
      height: 600,
    })

    // Refusals: JSON with a fitting status, in the caller's language.
    const notPicture = await upload(form(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')))
    expect(notPicture.status).toBe(400)
    expect(await notPicture.json()).toEqual({ error: 'The file is not a JPEG, PNG or WebP image' })
    const nothing = await upload(new FormData())
    expect(nothing.status).toBe(400)
    expect(await nothing.json()).toEqual({ error: 'Attach an image in the image field' })
    const tooBig = await upload(form(Buffer.alloc(8 * 1024 * 1024 + 10)))
    expect(tooBig.status).toBe(413)
    expect(await tooBig.json()).toEqual({ error: 'The image is larger than 8 MB' })
    expect((await upload(form(source), '')).status).toBe(401)
    const user = await call('/api/auth/login', {
      body: { username: 'aibek', password: 'password123' },
    })
    expect((await upload(form(source), sessionOf(user.cookie))).status).toBe(403)
    expect(
      (await fetch(`${base()}/api/admin/images`, { headers: { Cookie: cookie } })).status,
    ).toBe(405)

    // Each width as WebP and JPEG, kept by browsers and proxies for a year.
    const key = answer.imageUrl.split('/')[2]!
    for (const [file, type] of [
      ['240.webp', 'image/webp'],
      ['480.jpg', 'image/jpeg'],
      ['900.webp', 'image/webp'],
    ] as const) {
      const served = await fetch(`${base()}/images/${key}/${file}`)
      expect(served.status).toBe(200)
      expect(served.headers.get('content-type')).toBe(type)
      expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
      const meta = await sharp(Buffer.from(await served.arrayBuffer())).metadata()
      expect(meta.width).toBe(Number(file.split('.')[0]))
    }
    // A width it is not kept in is the site's 404.
    expect((await fetch(`${base()}/images/${key}/1200.webp`)).status).toBe(404)
  })

  test("the demo's products have pictures, and a phone's card loads one under 30 KB", async () => {
    // Every product of the demo seed has a picture of ours.
    const titles = Object.keys(SEED_PICTURES)
    const seeded = await e2eDatabase().auction.findMany({
      where: { title: { in: titles } },
      select: { title: true, imageUrl: true },
    })
    expect(new Set(seeded.map((row) => row.title))).toEqual(new Set(titles))
    for (const { imageUrl } of seeded) expect(imageUrl).toMatch(/^\/images\/[0-9a-f]{20}-/)

    // A card on a phone: an upcoming auction starting soon, so it is on the list's first page.
    const upload = new FormData()
    upload.set('image', new Blob([new Uint8Array(await picture(2000, 1500, 90))]), 'photo.png')
    const kept = await fetch(`${base()}/api/admin/images`, {
      method: 'POST',
      headers: { Cookie: await adminCookie() },
      body: upload,
    })
    const { imageUrl } = (await kept.json()) as { imageUrl: string }
    const title = `Карточка ${Date.now().toString(36)}`
    await createAuction({ title, startsInMs: 60_000, imageUrl })

    const page = await browser.newPage({ ...phone, deviceScaleFactor: 3, consented: true })
    const card = page.locator('article', { hasText: title }).locator('picture img')
    await expect
      .poll(
        async () => {
          await open(page, '/auctions')
          return card.count()
        },
        { timeout: 10_000 },
      )
      .toBe(1)
    await card.scrollIntoViewIfNeeded()
    await expect
      .poll(() => card.evaluate((img: HTMLImageElement) => img.naturalWidth))
      .toBeGreaterThan(0)
    // A 390 px screen at 3 device pixels per CSS pixel would take 1200 px; a card stops at 480.
    const src = await card.evaluate((img: HTMLImageElement) => img.currentSrc)
    expect(src).toMatch(/\/480\.webp$/)
    const bytes = (await (await fetch(src)).arrayBuffer()).byteLength
    expect(bytes).toBeLessThan(30 * 1024)
    await screenshot(page, 'auction-cards-phone')
  })
})
