/**
 * A refusal of the product's rules (an auction that cannot be deleted, an order in the wrong
 * status, a balance change that would go below zero): the HTTP status it answers with and the
 * i18n key of its text. The key is read in the namespaces of the model that throws it ("admin"
 * for the admin models, "orders" for orders; a key may name its namespace, `admin-orders:…`).
 * Pages show the text at the form or in a toast, the JSON API answers `{ error }` with the
 * status; anything else thrown is a fault, not a refusal.
 */
export class DomainError extends Error {
  constructor(
    public readonly status: number,
    public readonly key: string,
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
