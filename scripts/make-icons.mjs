#!/usr/bin/env node
/**
 * Writes the PWA icons into client/public/icons: a blue (#00397D) square with a white football with a
 * red (#DC2626) rim, drawn with 4×4 supersampling and encoded as PNG with node:zlib only
 * (no ImageMagick needed). Run: node scripts/make-icons.mjs
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const outDir = path.resolve(import.meta.dirname, '../client/public/icons');

const BLUE = [0x00, 0x39, 0x7d];
const WHITE = [0xff, 0xff, 0xff];
const RED = [0xdc, 0x26, 0x26];

const CRC_TABLE = new Uint32Array(256).map((_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buffer) {
  let c = 0xffffffff;
  for (const byte of buffer) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function encodePng(size, rgb) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: truecolour RGB
  const raw = Buffer.alloc(size * (size * 3 + 1));
  for (let y = 0; y < size; y++) {
    raw[y * (size * 3 + 1)] = 0; // filter: none
    rgb.copy(raw, y * (size * 3 + 1) + 1, y * size * 3, (y + 1) * size * 3);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Is the point (relative to a pentagon's centre) inside a regular pentagon of this radius, pointing at `rotation`? */
function inPentagon(dx, dy, radius, rotation) {
  const sector = (2 * Math.PI) / 5;
  const angle = Math.atan2(dy, dx) - rotation;
  const local = (((angle % sector) + sector) % sector) - sector / 2;
  return Math.hypot(dx, dy) < (radius * Math.cos(Math.PI / 5)) / Math.cos(local);
}

/** Colour of a point in unit coordinates (0..1); `scale` shrinks the motif for maskable icons. */
function colourAt(x, y, scale) {
  const dx = (x - 0.5) / scale;
  const dy = (y - 0.5) / scale;
  const r = Math.hypot(dx, dy);
  if (r > 0.34) return BLUE;
  if (r > 0.315) return RED;
  const up = -Math.PI / 2;
  // A football: a pentagon in the middle, seams to five outer panels cut by the ball's edge.
  if (inPentagon(dx, dy, 0.1, up)) return BLUE;
  for (let k = 0; k < 5; k++) {
    const a = up + (k * 2 * Math.PI) / 5;
    const cx = Math.cos(a);
    const cy = Math.sin(a);
    if (inPentagon(dx - cx * 0.31, dy - cy * 0.31, 0.085, a + Math.PI)) return BLUE;
    const along = dx * cx + dy * cy;
    const across = Math.abs(-dx * cy + dy * cx);
    if (along > 0.09 && along < 0.25 && across < 0.012) return BLUE;
  }
  return WHITE;
}

function drawIcon(size, scale) {
  const samples = 4;
  const rgb = Buffer.alloc(size * size * 3);
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      const sum = [0, 0, 0];
      for (let sy = 0; sy < samples; sy++) {
        for (let sx = 0; sx < samples; sx++) {
          const colour = colourAt((px + (sx + 0.5) / samples) / size, (py + (sy + 0.5) / samples) / size, scale);
          sum[0] += colour[0];
          sum[1] += colour[1];
          sum[2] += colour[2];
        }
      }
      const offset = (py * size + px) * 3;
      for (let c = 0; c < 3; c++) rgb[offset + c] = Math.round(sum[c] / (samples * samples));
    }
  }
  return encodePng(size, rgb);
}

const icons = [
  { name: 'icon-192.png', size: 192, scale: 1 },
  { name: 'icon-512.png', size: 512, scale: 1 },
  // Maskable: the motif stays inside the 80 % safe zone.
  { name: 'icon-maskable-512.png', size: 512, scale: 0.8 },
  { name: 'apple-touch-icon-180.png', size: 180, scale: 0.9 },
  { name: 'favicon-32.png', size: 32, scale: 1.25 },
];

fs.mkdirSync(outDir, { recursive: true });
for (const icon of icons) {
  const file = path.join(outDir, icon.name);
  fs.writeFileSync(file, drawIcon(icon.size, icon.scale));
  console.log(`wrote ${path.relative(process.cwd(), file)}`);
}
