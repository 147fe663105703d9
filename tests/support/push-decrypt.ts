import { createDecipheriv, createECDH, createHmac, randomBytes, type ECDH } from 'node:crypto'

// The user agent's side of Web Push encryption, written from the RFCs with node:crypto alone
// (not from the sending library), so that a test proves what went over the wire:
// RFC 8291 (Message Encryption for Web Push) on RFC 8188 (the aes128gcm content coding).
// https://www.rfc-editor.org/rfc/rfc8291  https://www.rfc-editor.org/rfc/rfc8188

/** A browser's subscription keys: its ECDH P-256 key pair and its 16-byte auth secret. */
export type DeviceKeys = { ecdh: ECDH; auth: Buffer }

export function newDeviceKeys(): DeviceKeys {
  const ecdh = createECDH('prime256v1')
  ecdh.generateKeys()
  return { ecdh, auth: randomBytes(16) }
}

/** The keys as a PushSubscription's toJSON() gives them (base64url). */
export function subscriptionKeys(device: DeviceKeys) {
  return {
    p256dh: device.ecdh.getPublicKey().toString('base64url'),
    auth: device.auth.toString('base64url'),
  }
}

const hmac = (key: Buffer, data: Buffer) => createHmac('sha256', key).update(data).digest()

/** HKDF-Expand for one block of output (RFC 5869), `length` ≤ 32 bytes. */
const expand = (prk: Buffer, info: Buffer, length: number) =>
  hmac(prk, Buffer.concat([info, Buffer.from([1])])).subarray(0, length)

/**
 * Decrypts an aes128gcm body sent to `device`: the header (salt, record size, the sender's
 * public key as keyid, RFC 8188 §2.1), the keys of RFC 8291 §3.3-3.4, then each record with
 * AES-128-GCM and its padding delimiter (2 for the last record, 1 before; zeros after it).
 */
export function decryptPush(body: Buffer, device: DeviceKeys): string {
  const salt = body.subarray(0, 16)
  const recordSize = body.readUInt32BE(16)
  const idLength = body[20]!
  const senderPublic = body.subarray(21, 21 + idLength)
  if (idLength !== 65 || senderPublic[0] !== 4) throw new Error('keyid is not a P-256 public key')
  if (recordSize < 18) throw new Error(`record size ${recordSize} too small`)

  const receiverPublic = device.ecdh.getPublicKey()
  const ecdhSecret = device.ecdh.computeSecret(senderPublic)
  // RFC 8291 §3.3: IKM from the ECDH secret, keyed by the auth secret, bound to both keys.
  const prkKey = hmac(device.auth, ecdhSecret)
  const keyInfo = Buffer.concat([
    Buffer.from('WebPush: info\0', 'latin1'),
    receiverPublic,
    senderPublic,
  ])
  const ikm = expand(prkKey, keyInfo, 32)
  // RFC 8188 §2.2-2.3: the content encryption key and the nonce from the salt.
  const prk = hmac(salt, ikm)
  const cek = expand(prk, Buffer.from('Content-Encoding: aes128gcm\0', 'latin1'), 16)
  const baseNonce = expand(prk, Buffer.from('Content-Encoding: nonce\0', 'latin1'), 12)

  const records = body.subarray(21 + idLength)
  const parts: Buffer[] = []
  for (let start = 0, seq = 0; start < records.length; start += recordSize, seq++) {
    const record = records.subarray(start, start + recordSize)
    const nonce = Buffer.from(baseNonce)
    // The record's sequence number XORed into the nonce (its last four bytes suffice here).
    nonce.writeUInt32BE((nonce.readUInt32BE(8) ^ seq) >>> 0, 8)
    const decipher = createDecipheriv('aes-128-gcm', cek, nonce)
    decipher.setAuthTag(record.subarray(record.length - 16))
    const plain = Buffer.concat([
      decipher.update(record.subarray(0, record.length - 16)),
      decipher.final(),
    ])
    let end = plain.length - 1
    while (end >= 0 && plain[end] === 0) end--
    const last = start + recordSize >= records.length
    if (plain[end] !== (last ? 2 : 1)) throw new Error(`record ${seq}: bad padding delimiter`)
    parts.push(plain.subarray(0, end))
  }
  return Buffer.concat(parts).toString('utf8')
}
