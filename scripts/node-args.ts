/**
 * Options for the node that runs the production server (build/server.js), wherever it is
 * started: `npm start`, the quick start, the container, tests and benchmarks.
 *
 * A bid allocates many short-lived objects (the request, its answer, the real-time update). With
 * V8's default young generation (16 MB semi-spaces) a server taking 2,000 bids/s spent ~11 % of
 * its time in the collector; 64 MB semi-spaces took the server's CPU per bid from a page from
 * 0.52-0.56 to 0.44-0.46 ms (32 MB: no change; docs/performance.md, sixth round). It costs up to
 * ~100 MB more memory while busy. package.json's `start` and scripts/docker-entrypoint.sh write
 * the same options out (scripts/node-args.test.ts checks they agree).
 */
export const SERVER_NODE_ARGS = ['--max-semi-space-size=64']
