import { availabilityAction } from '~/services/availability.server.ts'
import { methodNotAllowed } from '~/utils/api.server.ts'

export const action = availabilityAction('phone')
export const loader = ({ request }: { request: Request }) => methodNotAllowed(request)
