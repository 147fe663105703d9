/**
 * A refusal to a person (an auction that cannot be deleted, an order in the wrong status, a
 * balance change that would go below zero, a username someone else has, wrong credentials, an
 * image that is not taken): the HTTP status it answers with and the i18n key of its text. The
 * key is read in the namespaces of the code that throws it ("admin" for the admin models,
 * "orders" for orders, "common" for accounts; a key may name its namespace, `admin-orders:…`).
 * `field` names the form field it is about, when it is one (a taken email): pages say it there.
 * Pages show the text at the form or in a toast, the JSON API answers `{ error }` with the
 * status; anything else thrown is a fault, not a refusal.
 */
export class DomainError extends Error {
  constructor(
    public readonly status: number,
    public readonly key: string,
    public readonly field?: string,
  ) {
    super(key)
    this.name = 'DomainError'
  }
}

/** What `promise` gives, or null when the product refuses it (a missing user, an auction gone). */
export function nullIfRefused<T>(promise: Promise<T>): Promise<T | null> {
  return promise.catch((error: unknown) => {
    if (error instanceof DomainError) return null
    throw error
  })
}
