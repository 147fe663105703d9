import { availabilityAction } from '~/services/availability.server.ts'
import { methodNotAllowed } from '~/utils/api.server.ts'

export const action = availabilityAction('email')
export const loader = ({ request }: { request: Request }) => methodNotAllowed(request)
