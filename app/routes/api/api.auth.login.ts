import { apiSignIn } from '~/services/api-sign-in.server.ts'
import { logIn } from '~/services/login.server.ts'
import { methodNotAllowed } from '~/utils/api.server.ts'
import { loginSchema } from '~/validation/user.ts'

export const action = apiSignIn(loginSchema, logIn)

export const loader = ({ request }: { request: Request }) => methodNotAllowed(request)
