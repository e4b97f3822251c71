import QRCode from 'qrcode';

export interface QrPath {
  size: number;
  path: string;
}

/** The light border around a QR code that scanners need: four modules wide. */
const QUIET_ZONE = 4;

/**
 * A QR code's dark modules as one SVG path (a 1×1 square per module, quiet zone included), for an
 * inline SVG: no image, no style attribute, so the Content-Security-Policy has nothing to allow
 * (docs/architecture.md, Content-Security-Policy). The GiroCode asks for level M as the EPC's
 * guidelines do; an invite link takes the same.
 */
export function qrPath(payload: string, errorCorrectionLevel: 'L' | 'M' | 'Q' | 'H' = 'M'): QrPath {
  const { modules } = QRCode.create(payload, { errorCorrectionLevel });
  const parts: string[] = [];
  for (let row = 0; row < modules.size; row++) {
    for (let col = 0; col < modules.size; col++) {
      if (modules.get(row, col)) parts.push(`M${col + QUIET_ZONE} ${row + QUIET_ZONE}h1v1h-1z`);
    }
  }
  return { size: modules.size + 2 * QUIET_ZONE, path: parts.join('') };
}
