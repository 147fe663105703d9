// Each page of the bare app (bench/bare.ts copies it once per page route): a loader and one line
// of text, and the pages nested in it.
import { Outlet, useLoaderData } from '@remix-run/react'

export function loader() {
  return { text: 'ok' }
}

export default function Page() {
  const { text } = useLoaderData<typeof loader>()
  return (
    <>
      <p>{text}</p>
      <Outlet />
    </>
  )
}
