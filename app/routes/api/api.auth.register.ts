import { apiSignIn } from '~/services/api-sign-in.server.ts'
import { register } from '~/services/registration.server.ts'
import { methodNotAllowed } from '~/utils/api.server.ts'
import { registerSchema } from '~/validation/user.ts'

export const action = apiSignIn(registerSchema, register, 201)

export const loader = ({ request }: { request: Request }) => methodNotAllowed(request)
