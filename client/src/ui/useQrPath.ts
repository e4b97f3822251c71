import { useEffect, useState } from 'react';
import type { QrPath } from './qrCode.js';

/**
 * A QR code of `payload` (null: none), drawn after the screen has painted: the encoder is a chunk of
 * its own, loaded and run in a task apart from the screen's first render. null until it is ready.
 */
export function useQrPath(payload: string | null): QrPath | null {
  const [code, setCode] = useState<{ payload: string; path: QrPath } | null>(null);
  useEffect(() => {
    if (payload === null) return;
    let cancelled = false;
    void import('./qrCode.js').then(({ qrPath }) => {
      if (!cancelled) setCode({ payload, path: qrPath(payload) });
    });
    return () => {
      cancelled = true;
    };
  }, [payload]);
  return code !== null && code.payload === payload ? code.path : null;
}
