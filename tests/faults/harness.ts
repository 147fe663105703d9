// What every fault scenario needs beyond the stack (tests/setup/stack.ts): bidders that remember
// every bid the server acknowledged (bidders.ts), the final accounting of Redis, Postgres and
// ledger (accounting.ts), viewers of the live updates (viewer.ts) and what a scenario prints
// (output.ts).
export * from '../setup/stack.ts'
export * from './accounting.ts'
export * from './bidders.ts'
export * from './output.ts'
export * from './viewer.ts'
