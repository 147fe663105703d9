import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node'
import { saveSettings } from '~/services/settings-sync.server.ts'
import { getSettings } from '~/models/settings.server.ts'
import { adminApi } from '~/services/admin.server.ts'
import { json, methodNotAllowed, readJson, validate } from '~/utils/api.server.ts'
import { settingsSchema } from '~/validation/admin-settings.ts'

export async function loader({ request }: LoaderFunctionArgs) {
  return adminApi(request, async () => json(await getSettings()))
}

/** PUT the whole form: currency, currencySymbol, siteName, language, texts, contacts, … */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'PUT') return methodNotAllowed(request)
  return adminApi(request, async (t) => {
    const input = validate(settingsSchema, await readJson(request, t), t)
    return json(await saveSettings(context.engine, input))
  })
}
