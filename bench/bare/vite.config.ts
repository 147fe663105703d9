// The bare app's build (bench/bare.ts runs it in the generated folder): the Remix plugin with the
// site's own options (vite.config.ts), nothing else. The routes are the generated app/routes.ts.
import { vitePlugin as remix } from '@remix-run/dev'
import { defineConfig } from 'vite'
import { remixOptions } from '../../vite.config.ts'

export default defineConfig({
  build: { target: 'es2020' },
  logLevel: 'warn',
  plugins: [remix(remixOptions)],
})
