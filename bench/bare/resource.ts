// Each resource route of the bare app (bench/bare.ts copies it once per resource route): one line
// of text, as the site's `/status.txt` answers.
export function loader() {
  return new Response('ok\n', {
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' },
  })
}
