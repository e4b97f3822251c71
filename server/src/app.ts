import { OpenAPIHono } from '@hono/zod-openapi';
import { JSON_BODY_LIMIT_BYTES, IMAGE_MAX_BYTES, STATEMENT_MAX_BYTES } from '@fankurve/shared';
import { bodyLimit } from 'hono/body-limit';
import type { Context } from 'hono';
import { attendanceRoutes } from './http/attendance.js';
import { attendeeRoutes } from './http/attendees.js';
import { authRoutes } from './http/auth.js';
import { compression } from './http/compress.js';
import type { Api, AppDeps, AppEnv } from './http/context.js';
import { failure, handleError, validationFailure } from './http/errors.js';
import { eventRoutes } from './http/events.js';
import { guestRoutes } from './http/guests.js';
import { healthRoutes } from './http/health.js';
import { jsonBody } from './http/jsonBody.js';
import { matchRoutes } from './http/matches.js';
import { metaRoutes } from './http/meta.js';
import { pushRoutes } from './http/push.js';
import { recoveryRoutes } from './http/recovery.js';
import { inviteRoutes } from './http/invites.js';
import { sessionRoutes } from './http/sessions.js';
import { loadSession } from './http/session.js';
import { securityHeaders } from './http/securityHeaders.js';
import { stadiumRoutes } from './http/stadiums.js';
import { staticRoutes } from './http/static.js';
import { ticketRoutes } from './http/tickets.js';
import { contingentRoutes } from './http/contingents.js';
import { ledgerRoutes } from './http/ledger.js';
import { bankStatementRoutes } from './http/bankStatements.js';
import { auditRoutes } from './http/audit.js';
import { transportRoutes } from './http/transports.js';
import { pollRoutes } from './http/polls.js';
import { loyaltyRoutes } from './http/loyalty.js';
import { statsRoutes } from './http/stats.js';
import { adminRoutes } from './http/admin.js';
import { commentRoutes } from './http/comments.js';
import { configRoutes } from './http/config.js';
import { exportRoutes } from './http/exports.js';
import { calendarRoutes } from './http/calendar.js';
import { reminderRoutes } from './http/reminders.js';
import { userRoutes } from './http/users.js';
import { memberImportRoutes } from './http/memberImport.js';
import { dataExportRoutes } from './http/dataExport.js';
import { erasureRoutes } from './http/erasure.js';
import { MEMBER_IMPORT_MAX_BYTES } from '@fankurve/shared/rules/memberImport';
import { COLLECTION_MODULES } from './collections/index.js';
import { syncCollectionsWith } from './sync/registry.js';
import { syncRoutes } from './sync/routes.js';

/** Uploads (multipart) get the image limit plus room for the form framing; everything else the JSON limit. */
const isUpload = (path: string) => /\/(image|logo)$/.test(path);
/** A bank statement file: its own, larger limit (docs/architecture.md, Bank statements). */
const isStatementUpload = (path: string) => path === '/api/ledger/statements';
/** The member import's list: a JSON body with a larger limit of its own (docs/architecture.md, Member import). */
const isMemberImport = (path: string) => path === '/api/users/import';

export function createApp(deps: AppDeps): Api {
  const app = new OpenAPIHono<AppEnv>({
    defaultHook: (result, c) => (result.success ? undefined : validationFailure(c, result.error)),
  });

  app.onError(handleError);
  app.use('*', securityHeaders());
  app.use('*', compression());
  const jsonLimit = bodyLimit({ maxSize: JSON_BODY_LIMIT_BYTES, onError: (c) => failure(c, 413, 'bodyTooLarge') });
  // On an upload path the body is the file: too large says so in the words of docs/product.md, Error texts.
  const uploadLimit = bodyLimit({ maxSize: IMAGE_MAX_BYTES + 64 * 1024, onError: (c) => failure(c, 413, 'fileTooLarge') });
  const statementLimit = bodyLimit({
    maxSize: STATEMENT_MAX_BYTES + 64 * 1024,
    onError: (c) => failure(c, 413, 'statementTooLarge'),
  });
  // A JSON body is read from Node's request itself (http/jsonBody.ts); any other under the same limit.
  const json = jsonBody({
    maxSize: JSON_BODY_LIMIT_BYTES,
    tooLarge: (c) => failure(c, 413, 'bodyTooLarge'),
    fallback: jsonLimit,
  });
  const memberImportTooLarge = (c: Context) => failure(c, 413, 'memberImportTooLarge');
  const memberImportJson = jsonBody({
    maxSize: MEMBER_IMPORT_MAX_BYTES,
    tooLarge: memberImportTooLarge,
    fallback: bodyLimit({ maxSize: MEMBER_IMPORT_MAX_BYTES, onError: memberImportTooLarge }),
  });
  // GET and HEAD carry no body that anything reads: looking at one would cost every read request a full Request object.
  app.use('/api/*', (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    if (isStatementUpload(c.req.path)) return statementLimit(c, next);
    if (isMemberImport(c.req.path)) return memberImportJson(c, next);
    return isUpload(c.req.path) ? uploadLimit(c, next) : json(c, next);
  });
  app.use('/api/*', loadSession(deps));

  metaRoutes(app, deps);
  healthRoutes(app, deps);
  authRoutes(app, deps);
  sessionRoutes(app, deps);
  eventRoutes(app, deps);
  attendanceRoutes(app, deps);
  attendeeRoutes(app, deps);
  guestRoutes(app, deps);
  ticketRoutes(app, deps);
  contingentRoutes(app, deps);
  ledgerRoutes(app, deps);
  bankStatementRoutes(app, deps);
  auditRoutes(app, deps);
  transportRoutes(app, deps);
  exportRoutes(app, deps);
  calendarRoutes(app, deps);
  reminderRoutes(app, deps);
  pollRoutes(app, deps);
  loyaltyRoutes(app, deps);
  statsRoutes(app, deps);
  stadiumRoutes(app, deps);
  // The collections in folders of their own bring their routes and their sync collection.
  for (const module of COLLECTION_MODULES) module.routes?.(app, deps);
  syncRoutes(app, deps, syncCollectionsWith(COLLECTION_MODULES.map((module) => module.sync)));
  // ── route areas: money, admin, recovery ──
  recoveryRoutes(app, deps);
  inviteRoutes(app, deps);
  adminRoutes(app, deps);
  userRoutes(app, deps);
  memberImportRoutes(app, deps);
  dataExportRoutes(app, deps);
  erasureRoutes(app, deps);
  // ── route areas: comments (commentRoutes), push (pushRoutes) ──
  commentRoutes(app, deps);
  pushRoutes(app, deps);
  // ── route areas: team configuration (configRoutes), fixture import (matchRoutes) ──
  configRoutes(app, deps);
  matchRoutes(app, deps);

  app.openAPIRegistry.registerComponent('securitySchemes', 'bearer', { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
  app.doc31('/api/openapi.json', { openapi: '3.1.0', info: { title: 'Fankurve API', version: deps.version } });
  app.all('/api/*', (c) => failure(c, 404, 'notFound'));
  staticRoutes(app, deps);
  app.notFound((c) => failure(c, 404, 'notFound'));
  return app;
}
