import { SERVICE_WORKER_URL } from '~/utils/web-app.ts'

// This browser's Web Push subscription (W3C Push API), for the profile's section
// (app/components/profile/push-notifications.tsx); the site keeps it through
// /api/users/push-subscriptions (docs/push.md).

const API = '/api/users/push-subscriptions'

export function pushSupported(): boolean {
  return 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window
}

/** A base64url VAPID public key as the bytes `applicationServerKey` takes. */
function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/')
  const text = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4))
  const bytes = new Uint8Array(new ArrayBuffer(text.length))
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i)
  return bytes
}

function sameBytes(a: ArrayBuffer | null, b: Uint8Array): boolean {
  if (!a || a.byteLength !== b.length) return false
  const bytes = new Uint8Array(a)
  return bytes.every((byte, i) => byte === b[i])
}

async function registration(): Promise<ServiceWorkerRegistration> {
  await navigator.serviceWorker.register(SERVICE_WORKER_URL, { scope: '/' })
  return navigator.serviceWorker.ready
}

export async function currentSubscription(): Promise<PushSubscription | null> {
  const found = await navigator.serviceWorker.getRegistration('/')
  return found ? found.pushManager.getSubscription() : null
}

/** An endpoint as the profile's page names the person's devices: its SHA-256, in hex. */
export async function endpointKey(endpoint: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(endpoint))
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('')
}

async function send(method: 'POST' | 'DELETE', body: unknown) {
  const response = await fetch(API, {
    method,
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  })
  if (!response.ok) throw new Error(`${method} ${API}: ${response.status}`)
}

export type EnableResult = 'on' | 'denied'

/** Asks for permission, subscribes this browser and has the site keep the subscription. */
export async function enablePush(publicKey: string): Promise<EnableResult> {
  const permission = await Notification.requestPermission()
  if (permission !== 'granted') return 'denied'
  const ready = await registration()
  const key = keyBytes(publicKey)
  let subscription = await ready.pushManager.getSubscription()
  // One made with an earlier key pair (the site's keys were changed) would be refused.
  if (subscription && !sameBytes(subscription.options.applicationServerKey, key)) {
    await subscription.unsubscribe()
    subscription = null
  }
  subscription ??= await ready.pushManager.subscribe({
    userVisibleOnly: true,
    applicationServerKey: key,
  })
  await send('POST', subscription.toJSON())
  return 'on'
}

/** Has the site forget this browser, then ends its subscription. */
export async function disablePush(): Promise<void> {
  const subscription = await currentSubscription()
  if (!subscription) return
  await send('DELETE', { endpoint: subscription.endpoint })
  await subscription.unsubscribe()
}
