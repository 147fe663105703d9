declare module 'async-exit-hook' {
  type Hook = (done: () => void) => void
  const exitHook: ((hook: Hook) => void) & {
    unhookEvent: (event: string) => void
    hookedEvents: () => string[]
  }
  export default exitHook
}
