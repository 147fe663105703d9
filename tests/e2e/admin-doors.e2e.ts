import { expect, test } from 'vitest'
import { routeManifest } from '../support/route-manifest.ts'
import { newAccount } from './api.ts'
import { getPage, postPage } from './pages.ts'

// Who may open the admin pages (docs/rules.md#roles): every page under /admin sends an anonymous
// visitor to the login with the page to come back to, and a person who is no admin to the home
// page; a post is turned away the same way. The server decides, with or without JavaScript in
// the visitor's browser: no browser is needed to see it (the pages themselves are tested in the
// admin browser tests).

/** Every address under /admin the site serves, an id in it replaced by one that is nobody's. */
function adminAddresses(): string[] {
  const urls = routeManifest()
    .map((route) => route.url)
    .filter((url) => url === '/admin' || url.startsWith('/admin/'))
    .map((url) => url.replace(/:[^/]+/g, 'no-such'))
  return [...new Set(urls)].sort()
}

/** A search kept through the login: each address asked for with one. */
const withSearch = (url: string) => `${url}?page=2&search=x`

test('every admin page sends a visitor to the login and a person who is no admin home', async () => {
  const addresses = adminAddresses()
  // The dashboard, its dialog routes and the lists of users, orders, payments and finished
  // auctions, the settings and the alerts.
  expect(addresses.length).toBeGreaterThanOrEqual(20)
  const person = await newAccount()
  const wrong: string[] = []
  for (const url of addresses) {
    const asked = withSearch(url)
    const anonymous = await getPage(asked, '', 'ru')
    const login = new URL(anonymous.location ?? '', 'http://site')
    if (
      anonymous.status !== 302 ||
      login.pathname !== '/login' ||
      login.searchParams.get('redirectTo') !== asked
    ) {
      wrong.push(`anonymous ${asked}: ${anonymous.status} ${anonymous.location}`)
    }
    const user = await getPage(asked, person.cookie, 'ru')
    if (user.status !== 302 || user.location !== '/') {
      wrong.push(`user ${asked}: ${user.status} ${user.location}`)
    }
  }
  expect(wrong).toEqual([])
})

test('a post to an admin page is turned away the same way', async () => {
  const person = await newAccount()
  const form = { form: { intent: 'save', siteName: 'x' } }
  const anonymous = await postPage('/admin/settings', form)
  expect(anonymous.status).toBe(302)
  expect(new URL(anonymous.location ?? '', 'http://site').pathname).toBe('/login')
  const user = await postPage('/admin/settings', form, { cookie: person.cookie })
  expect({ status: user.status, location: user.location }).toEqual({ status: 302, location: '/' })
})
