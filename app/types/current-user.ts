/** The signed-in user as every page knows them (app/services/session.server.ts reads the row). */
export type CurrentUser = {
  id: string
  username: string
  email: string
  firstName: string | null
  lastName: string | null
  role: 'user' | 'admin'
  bidBalance: number
  wonAuctions: number
}
