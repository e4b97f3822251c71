import { randomBytes } from 'node:crypto';
import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';

/*
 * The device cookie (docs/architecture.md, "Sessions, throttles and limits"): a random id the server
 * gives a browser at its first successful sign-in and reads back at the next ones, so GuessThrottle
 * can tell a device that signed in to the account before, from any address (a phone that changes
 * networks). It is no credential: it signs nobody in and only lets the owner's sign-in go ahead of
 * strangers' when the server is busy. HttpOnly (scripts never see it), SameSite=Strict, sent only to
 * the sign-in route, Secure when the club's PUBLIC_URL is https.
 */

export const DEVICE_COOKIE = 'fankurve_device';
const DEVICE_COOKIE_PATH = '/api/auth/login';
/** 400 days, the longest a browser keeps a cookie. */
const DEVICE_COOKIE_MAX_AGE_S = 400 * 24 * 60 * 60;
const DEVICE_ID = /^[A-Za-z0-9_-]{22}$/;

/** The device id the request's cookie carries, if it is one the server could have given. */
export function deviceIdOf(c: Context): string | undefined {
  const value = getCookie(c, DEVICE_COOKIE);
  return value !== undefined && DEVICE_ID.test(value) ? value : undefined;
}

/** A new device id: 16 random bytes, base64url. */
export const newDeviceId = (): string => randomBytes(16).toString('base64url');

/** Gives (or renews) the browser its device cookie after a successful sign-in. */
export function setDeviceCookie(c: Context, deviceId: string, publicUrl: string): void {
  setCookie(c, DEVICE_COOKIE, deviceId, {
    path: DEVICE_COOKIE_PATH,
    httpOnly: true,
    sameSite: 'Strict',
    secure: publicUrl.startsWith('https:'),
    maxAge: DEVICE_COOKIE_MAX_AGE_S,
  });
}
