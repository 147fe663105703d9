import { decode } from 'turbo-stream'

// The data a server-rendered page hands the browser (Remix's single-fetch stream in an inline
// script), decoded as the browser would.

const DATA =
  /<script nonce="[^"]*">window\.__remixContext\.streamController\.enqueue\(("(?:[^"\\]|\\.)*")\);<\/script>/

/** The page's data script, as a pattern: to leave it out of a comparison of the markup. */
export const PAGE_DATA_SCRIPT = DATA

export async function pageDataOf(html: string): Promise<unknown> {
  const literal = DATA.exec(html)?.[1]
  if (!literal) throw new Error('no page data')
  const bytes = new TextEncoder().encode(JSON.parse(literal) as string)
  const decoded = await decode(
    new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes)
        controller.close()
      },
    }),
  )
  await decoded.done
  return decoded.value
}
