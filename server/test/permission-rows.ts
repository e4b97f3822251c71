import type { TestApp } from './helpers.js';

/*
 * The permission matrix's row type and its expectations, for the matrix (permission-matrix.ts) and
 * for the rows a collection in its own folder keeps beside its tests (collections/<name>/permissions.ts,
 * exporting `permissionRows`), which the matrix collects.
 */

export const ROLES = ['anonymous', 'member', 'other', 'admin'] as const;
export type Role = (typeof ROLES)[number];
export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface Fixtures {
  t: TestApp;
  admin: { id: string; token: string };
  member: { id: string; token: string };
  other: { id: string; token: string };
  eventId: string;
  stadiumId: string;
}

/** Path parameters, plus any further values a row's setup hands to its body, caller and checks. */
export type Params = Record<string, string>;

/** What a row's `after` check gets besides the answer: the setup's params, the caller's token and the sent body. */
export interface CallInfo {
  params: Params;
  token: string | null;
  sent: unknown;
}

export interface RouteCase {
  method: Method;
  /** The path as the OpenAPI document spells it. */
  path: string;
  /** Why a row has no route in the document (only the document itself). */
  notInDocument?: string;
  /** A valid body for the route (params may be missing: the token tests call with sample params). */
  body?: (f: Fixtures, role: Role, params: Params) => unknown;
  /** Path parameters for a call by this role (may create fresh fixtures, so every call is repeatable). */
  params?: (f: Fixtures, role: Role) => Promise<Params>;
  /** A different caller than the role's standing token (e.g. a throwaway account whose password changes). */
  caller?: (f: Fixtures, role: Role, params: Params) => Promise<string>;
  adminOnly?: boolean;
  /** A multipart upload of a small PNG in the field `image` instead of a JSON body. */
  upload?: boolean;
  /** A multipart upload of this file instead (e.g. a bank statement in the field `file`). */
  uploadFile?: () => { field: string; bytes: Uint8Array; filename: string; type: string };
  /** A server-sent-events stream: the call checks status and content type, then aborts. */
  stream?: boolean;
  /** A successful answer is not the `{ success: true, … }` envelope (the document, sync answers, a stream). */
  plainAnswer?: boolean;
  /** Also open while the password must still be changed (must_change_password). */
  passwordChangePending?: boolean;
  /** Expected status for every role. */
  expect: Record<Role, number>;
  /** Further checks after the call (e.g. another member's call changed nothing). */
  after?: (f: Fixtures, role: Role, body: any, call: CallInfo) => Promise<void>;
}

let counter = 0;
export const unique = (prefix: string) => `${prefix}${++counter}`;

export const PUBLIC = { anonymous: 200, member: 200, other: 200, admin: 200 };
export const SIGNED_IN = { anonymous: 401, member: 200, other: 200, admin: 200 };
export const CREATED_SIGNED_IN = { anonymous: 401, member: 201, other: 201, admin: 201 };
/** Admin-only (other members too: also against the member the row is about). */
export const ADMIN_ONLY = { anonymous: 401, member: 403, other: 403, admin: 200 };
export const CREATED_ADMIN_ONLY = { anonymous: 401, member: 403, other: 403, admin: 201 };
/** The owner (event creator, guest's member) or an admin; another member gets 403. */
export const OWNER_OR_ADMIN = { anonymous: 401, member: 200, other: 403, admin: 200 };
