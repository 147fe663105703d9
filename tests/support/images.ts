import { crc32, deflateSync } from 'node:zlib'

// Pictures for tests that are cheap to make but expensive to decode: a whole PNG (PNG
// specification, https://www.w3.org/TR/png-3/: signature, IHDR, IDAT, IEND, each chunk with its
// CRC-32) written by hand, of one 8-bit grey channel, every pixel black.

function chunk(type: string, data: Buffer) {
  const length = Buffer.alloc(4)
  length.writeUInt32BE(data.length)
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(body))
  return Buffer.concat([length, body, crc])
}

/** A complete, valid PNG of `width` x `height` black pixels (a few hundred KB at most). */
export function longPng(width: number, height: number): Buffer {
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header[8] = 8 // bit depth
  header[9] = 0 // greyscale; compression, filter and interlace 0
  // Each row: filter type 0, then one byte a pixel.
  const rows = deflateSync(Buffer.alloc((width + 1) * height), { level: 1 })
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', rows),
    chunk('IEND', Buffer.alloc(0)),
  ])
}
