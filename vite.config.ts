import { vitePlugin as remix } from '@remix-run/dev'
import tailwindcss from '@tailwindcss/vite'
import { defineConfig } from 'vite'
import tsconfigPaths from 'vite-tsconfig-paths'

declare module '@remix-run/node' {
  interface Future {
    v3_singleFetch: true
  }
}

/** The Remix plugin's options; bench/bare/vite.config.ts builds its bare app with the same. */
export const remixOptions = {
  serverModuleFormat: 'esm',
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_singleFetch: true,
    v3_lazyRouteDiscovery: true,
    // The routes are read from app/routes.ts: app/routes/ and its admin, account, auction and
    // api folders.
    v3_routeConfig: true,
  },
} satisfies Parameters<typeof remix>[0]

/**
 * bench:weight builds a copy of the site into this folder with source maps beside the scripts
 * (never referenced from them, never served) to say where the scripts' bytes go; unset, the
 * build is the site's own.
 */
const sourceMapsBuild = process.env.BENCH_SOURCE_MAPS_BUILD

export default defineConfig({
  server: {
    hmr: process.env.NODE_ENV !== 'test',
    // Data and caches (the image test's podman storage in .cache) are no sources to watch.
    watch: { ignored: ['**/.data/**', '**/.cache/**'] },
  },
  build: {
    target: 'es2020',
    sourcemap: sourceMapsBuild ? 'hidden' : false,
    // Rollup folds a chunk under 1 KB without side effects into one loaded in the same cases: a
    // page asked for 40 files, each a round trip on a slow link (docs/performance.md, twelfth
    // round: 0.6-0.7 s sooner hydrated on the phone, the same bytes). Above 1 KB it folds chunks
    // into pages that do not need them (2 KB: the home page +4.5 KiB).
    rollupOptions: { output: { experimentalMinChunkSize: 1_000 } },
  },
  plugins: [
    tailwindcss(),
    remix(sourceMapsBuild ? { ...remixOptions, buildDirectory: sourceMapsBuild } : remixOptions),
    // The project's one tsconfig: no crawl through data and caches (.data, .cache).
    tsconfigPaths({ projects: ['./tsconfig.json'] }),
  ],
})
