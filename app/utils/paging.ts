/**
 * One page of a list of `total` rows, `perPage` a page: how many pages there are (always at least
 * one), the page asked for kept between the first and the last, and the rows to skip and take.
 */
export function pageOf(total: number, page: number, perPage: number) {
  const totalPages = Math.max(1, Math.ceil(total / perPage))
  const current = Math.min(Math.max(1, page), totalPages)
  return { current, totalPages, skip: (current - 1) * perPage, take: perPage }
}
