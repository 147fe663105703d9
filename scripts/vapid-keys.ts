import webpush from 'web-push'

// Prints a new VAPID key pair for Web Push (docs/operations.md, "Web Push keys"): set both in the
// environment with VAPID_SUBJECT. Changing the pair later makes every subscribed device
// subscribe again (push services refuse a key the device was not subscribed with).

const { publicKey, privateKey } = webpush.generateVAPIDKeys()
console.log(`VAPID_PUBLIC_KEY=${publicKey}`)
console.log(`VAPID_PRIVATE_KEY=${privateKey}`)
