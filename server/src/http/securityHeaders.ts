import { secureHeaders } from 'hono/secure-headers';

/**
 * The Content-Security-Policy of every answer (app shell, static files, uploads, API, errors).
 *
 * The session token lives in localStorage, so injected script must never run: scripts come only from
 * this origin's files (no inline script, no eval), and the client has none inline (index.html loads
 * /shell.js and the Vite bundle). Styles are files too; React's style={{}} and the theme colour
 * (style.setProperty on CSS variables) go through the CSSOM, which style-src does not govern, so no
 * 'unsafe-inline' is needed. The club's logo and uploaded images are same-origin (/uploads); data:
 * and blob: images leave room for inline icons and previews of a picked file. No framing, no plugins, no <base> rewriting.
 */
export const CONTENT_SECURITY_POLICY = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'"],
  imgSrc: ["'self'", 'data:', 'blob:'],
  fontSrc: ["'self'"],
  connectSrc: ["'self'"],
  workerSrc: ["'self'"],
  manifestSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'none'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
} satisfies Record<string, string[]>;

/** Hono's secure headers with the policy above; frames are refused by X-Frame-Options too, for old browsers. */
export function securityHeaders() {
  return secureHeaders({
    crossOriginEmbedderPolicy: false,
    contentSecurityPolicy: CONTENT_SECURITY_POLICY,
    xFrameOptions: 'DENY',
  });
}
