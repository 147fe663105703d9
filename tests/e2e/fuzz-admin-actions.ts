import { auctionFields, victimEdit, type PageActions } from './fuzz-forms.ts'

/** Every page action of the admin's pages and its forms (fuzz-pages-admin.e2e.ts). */
export const adminActions: PageActions = {
  'admin/admin._dashboard.tsx': {
    admin: true,
    // Forms of the dashboard before its dialogs had routes of their own: all answered 400.
    forms: () => [
      { url: '/admin?index', fields: () => ({ intent: 'create', ...auctionFields() }) },
      { url: '/admin', fields: () => ({ intent: 'deleteBot', id: 'no-such' }) },
    ],
  },
  'admin/admin._dashboard.auctions.new.tsx': {
    admin: true,
    forms: () => [
      {
        url: '/admin/auctions/new',
        fields: () => ({ ...auctionFields(), isBidPackage: '', packageBids: '' }),
        stores: 'auctions',
      },
    ],
  },
  'admin/admin._dashboard.auctions.$id.edit.tsx': {
    admin: true,
    forms: (f) => [
      { url: `/admin/auctions/${f.auctions.edited.id}/edit?page=2`, fields: auctionFields },
      { url: '/admin/auctions/no-such/edit', fields: auctionFields },
    ],
  },
  'admin/admin._dashboard.auctions.$id.assign.tsx': {
    admin: true,
    forms: (f) => [
      {
        url: `/admin/auctions/${f.auctions.edited.id}/assign`,
        fields: () => ({ botId: 'no-such-bot', bidLimit: '3' }),
      },
    ],
  },
  'admin/admin._dashboard.auctions.$id.unassign.tsx': {
    admin: true,
    forms: (f) => [
      {
        url: `/admin/auctions/${f.auctions.edited.id}/unassign`,
        fields: () => ({ botId: 'no-such-bot' }),
      },
    ],
  },
  'admin/admin._dashboard.auctions.$id.end.tsx': {
    admin: true,
    forms: () => [{ url: '/admin/auctions/no-such/end', fields: () => ({ confirm: 'yes' }) }],
  },
  'admin/admin._dashboard.auctions.$id.delete.tsx': {
    admin: true,
    forms: () => [{ url: '/admin/auctions/no-such/delete', fields: () => ({ confirm: 'yes' }) }],
  },
  'admin/admin._dashboard.bots.settings.tsx': {
    admin: true,
    forms: () => [
      {
        url: '/admin/bots/settings',
        fields: () => ({ minDelay: '5', maxDelay: '6', activeBots: '0' }),
      },
    ],
  },
  'admin/admin._dashboard.bots.new.tsx': {
    admin: true,
    forms: () => [
      {
        url: '/admin/bots/new',
        fields: () => ({ firstName: 'Фазз', lastName: 'Бот' }),
        stores: 'bots',
      },
    ],
  },
  'admin/admin._dashboard.bots.$id.delete.tsx': {
    admin: true,
    forms: () => [{ url: '/admin/bots/no-such/delete', fields: () => ({ confirm: 'yes' }) }],
  },
  'admin/admin.users.$id.edit.tsx': {
    admin: true,
    forms: (f) => [
      {
        url: `/admin/users/${f.victim.id}/edit`,
        fields: () => victimEdit(f),
      },
    ],
  },
  'admin/admin.users.$id.delete.tsx': {
    admin: true,
    forms: () => [{ url: '/admin/users/no-such/delete', fields: () => ({ confirm: 'yes' }) }],
  },
  'admin/admin.orders.$id.refund.tsx': {
    admin: true,
    forms: () => [
      { url: '/admin/orders/no-such/refund', fields: () => ({ reason: 'Сумма не та' }) },
    ],
  },
  'admin/admin.payments.$id.refund.tsx': {
    admin: true,
    forms: () => [
      { url: '/admin/payments/no-such/refund', fields: () => ({ reason: 'Сумма не та' }) },
    ],
  },
  'admin/admin.finished-auctions.$id.delete.tsx': {
    admin: true,
    forms: () => [
      { url: '/admin/finished-auctions/no-such/delete', fields: () => ({ confirm: 'yes' }) },
    ],
  },
  // Posts of pages opened before the dialogs had routes of their own: refused, never a 5xx.
  'admin/admin.users.tsx': {
    admin: true,
    forms: (f) => [
      {
        url: `/admin/users?edit=${f.victim.id}`,
        fields: () => victimEdit(f),
      },
      {
        url: '/admin/users?confirm=delete:no-such',
        fields: () => ({ intent: 'delete', id: 'no-such' }),
      },
    ],
  },
  'admin/admin.orders.tsx': {
    admin: true,
    forms: () => [{ url: '/admin/orders', fields: () => ({ intent: 'paid', id: 'no-such' }) }],
  },
  'admin/admin.finished-auctions.tsx': {
    admin: true,
    forms: () => [
      {
        url: '/admin/finished-auctions?confirm=delete:no-such',
        fields: () => ({ intent: 'delete', id: 'no-such' }),
      },
    ],
  },
  'admin/admin.settings.tsx': {
    admin: true,
    forms: (f) => [
      {
        url: '/admin/settings',
        fields: () => ({
          intent: 'save',
          ...Object.fromEntries(
            Object.entries(f.settingsBefore).map(([key, value]) => [key, String(value ?? '')]),
          ),
          discloseHouseBids: f.settingsBefore.discloseHouseBids ? 'on' : '',
        }),
      },
    ],
  },
}
