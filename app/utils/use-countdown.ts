import { useEffect, useState } from 'react'

/**
 * Milliseconds left of a span the server measured (`msFromServer` when the page was made),
 * counted down with the monotonic clock, so a wrong clock on the phone changes nothing.
 * Null until hydrated (the server render shows a date instead).
 */
export function useCountdown(msFromServer: number | null, stepMs = 1000): number | null {
  const [left, setLeft] = useState<number | null>(null)
  useEffect(() => {
    if (msFromServer === null) return
    const deadline = performance.now() + msFromServer
    const tick = () => setLeft(Math.max(0, deadline - performance.now()))
    tick()
    const timer = setInterval(tick, stepMs)
    return () => clearInterval(timer)
  }, [msFromServer, stepMs])
  return left
}
