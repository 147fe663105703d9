// `ok` as plain text, from Remix without the site's layout: an uptime check that the app itself
// answers (`/healthz` is the Express server's alone), and the benchmarks' floor (bench/ssr.ts).
export function loader() {
  return new Response('ok\n', {
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' },
  })
}
