import type { ImageExtension } from './uploads.js';

/**
 * The pixel size of a JPEG, PNG, GIF or WebP from its header, or null when the header does not say
 * (cut off, an unusual JPEG). The web app manifest names its icons with their sizes, and a browser
 * installs the app only with a square icon of a known size.
 */
export function imageSizeOf(bytes: Uint8Array, type: ImageExtension): { width: number; height: number } | null {
  const size = read(bytes, type);
  return size && size.width > 0 && size.height > 0 ? size : null;
}

function read(b: Uint8Array, type: ImageExtension): { width: number; height: number } | null {
  const u16be = (at: number) => (b[at]! << 8) | b[at + 1]!;
  const u16le = (at: number) => b[at]! | (b[at + 1]! << 8);
  const u24le = (at: number) => b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16);
  const u32be = (at: number) => ((b[at]! << 24) >>> 0) + ((b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!);
  const ascii = (at: number, length: number) => String.fromCharCode(...b.subarray(at, at + length));

  switch (type) {
    case 'png':
      // Signature, then the IHDR chunk: length, 'IHDR', width, height.
      if (b.length < 24 || ascii(12, 4) !== 'IHDR') return null;
      return { width: u32be(16), height: u32be(20) };
    case 'gif':
      if (b.length < 10) return null;
      return { width: u16le(6), height: u16le(8) };
    case 'webp': {
      if (b.length < 30) return null;
      const chunk = ascii(12, 4);
      if (chunk === 'VP8 ') return { width: u16le(26) & 0x3fff, height: u16le(28) & 0x3fff };
      if (chunk === 'VP8L') {
        const [b1, b2, b3, b4] = [b[21]!, b[22]!, b[23]!, b[24]!];
        return { width: 1 + (((b2 & 0x3f) << 8) | b1), height: 1 + (((b4 & 0x0f) << 10) | (b3 << 2) | ((b2 & 0xc0) >> 6)) };
      }
      if (chunk === 'VP8X') return { width: 1 + u24le(24), height: 1 + u24le(27) };
      return null;
    }
    case 'jpg': {
      // Walk the segments to the first start-of-frame marker (C0–CF except C4 DHT, C8 JPG, CC DAC).
      let at = 2;
      while (at + 9 < b.length) {
        if (b[at] !== 0xff) return null;
        const marker = b[at + 1]!;
        if (marker === 0xff) {
          at += 1;
          continue;
        }
        if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
          at += 2;
          continue;
        }
        if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
          return { width: u16be(at + 7), height: u16be(at + 5) };
        }
        if (marker === 0xd9 || marker === 0xda) return null;
        at += 2 + u16be(at + 2);
      }
      return null;
    }
  }
}
