import { bidForms, type PageActions } from './fuzz-forms.ts'
import { unique } from './api.ts'

/**
 * Every page action a visitor or a person posts to (outside /admin) and its forms; a route with an
 * action that is missing here or in fuzz-admin-actions.ts fails the fuzz (fuzz-pages-visitor.e2e.ts).
 */
export const visitorActions: PageActions = {
  '$.tsx': { forms: () => [{ url: '/no-such-page', fields: () => ({ intent: 'x' }) }] },
  'auction/resources.bid.ts': { forms: (f) => bidForms(f, '/resources/bid') },
  'auction/resources.watch.ts': {
    forms: (f) => [
      {
        url: '/resources/watch',
        fields: () => ({
          auctionId: f.auctions.upcoming.id,
          watching: '1',
          redirectTo: '/auctions',
        }),
      },
      { url: '/resources/watch', fields: () => ({ auctionId: f.auctions.live.id, watching: '0' }) },
    ],
  },
  'account/resources.onboarding.ts': {
    forms: () => [{ url: '/resources/onboarding', fields: () => ({ intent: 'x' }) }],
  },
  'telegram-app.tsx': {
    forms: () => [
      { url: '/telegram-app', fields: () => ({ initData: 'user=1&auth_date=1&hash=00' }) },
    ],
  },
  'account/profile_.telegram.ts': {
    forms: () => [{ url: '/profile/telegram', fields: () => ({ intent: 'unlink' }) }],
  },
  'auction/auction.$slug.tsx': {
    forms: (f) => {
      const url = `/auction/${f.auctions.live.slug}`
      // Bids go to the bid action (resources.bid.ts); one here checks an old page's post is refused.
      return [
        { url, fields: () => ({ intent: 'bid' }) },
        { url, fields: () => ({ intent: 'autobid', bids: '3' }) },
        { url, fields: () => ({ intent: 'autobidStop' }) },
        { url, fields: () => ({ intent: 'buyNow' }) },
        { url: '/auction/no-such-auction', fields: () => ({ intent: 'bid' }) },
      ]
    },
  },
  'account/login.tsx': {
    forms: () => [
      {
        url: '/login',
        fields: () => ({ intent: 'login', username: 'nobody-here', password: 'wrong-password' }),
      },
      {
        url: '/login?tab=register',
        fields: () => {
          const name = unique()
          return {
            intent: 'register',
            username: name,
            email: `${name}@mail.kg`,
            password: 'secret12',
            confirmPassword: 'secret12',
            redirectTo: '/',
          }
        },
        stores: 'users',
      },
    ],
  },
  'account/logout.tsx': { forms: () => [{ url: '/logout', fields: () => ({}) }] },
  'set-language.tsx': {
    forms: () => [{ url: '/set-language', fields: () => ({ lng: 'ru', redirectTo: '/auctions' }) }],
  },
  'cookie-consent.tsx': {
    forms: () => [
      {
        url: '/cookie-consent',
        fields: () => ({ choice: 'custom', analytics: 'on', functional: 'on', redirectTo: '/' }),
      },
    ],
  },
  'account/complete-profile.tsx': {
    forms: () => [
      {
        url: '/complete-profile',
        fields: () => ({
          firstName: 'Айбек',
          lastName: 'Осмонов',
          phone: `+996${String(Date.now()).slice(-9)}`,
          dateOfBirth: '1990-05-17',
          gender: 'male',
          redirectTo: '/',
        }),
      },
    ],
  },
  'account/profile.tsx': {
    forms: (f) => [
      {
        url: '/profile',
        fields: () => ({
          firstName: 'Айбек',
          lastName: 'Осмонов',
          email: `${f.user.name}@mail.kg`,
          phone: '+996',
          dateOfBirth: '',
          gender: 'other',
        }),
      },
      {
        url: '/profile',
        fields: () => ({
          intent: 'delivery',
          orderId: 'no-such-order',
          deliveryMethod: 'courier_bishkek',
          address: 'Бишкек, ул. Киевская 1',
          phone: '+996555123456',
        }),
      },
    ],
  },
  'account/topup.tsx': {
    forms: () => [{ url: '/topup', fields: () => ({ intent: 'buy', packageId: 'bids-50' }) }],
  },
  'account/topup_.order.$id.tsx': {
    forms: () => [{ url: '/topup/order/no-such-order', fields: () => ({ intent: 'pay' }) }],
  },
  'account/payments.sandbox.$id.tsx': {
    forms: (f) => [
      { url: `/payments/sandbox/${f.paymentId}`, fields: () => ({ intent: 'decline' }) },
      { url: '/payments/sandbox/no-such-payment', fields: () => ({ intent: 'pay' }) },
    ],
  },
}
