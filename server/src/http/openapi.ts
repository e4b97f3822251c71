import { createRoute, z } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './context.js';
import { requireActor } from './session.js';

type Method = 'get' | 'post' | 'put' | 'delete';

/**
 * Who may call a route: anyone, a signed-in user, or a signed-in user who still has to change the
 * password. The check runs as route middleware, before the body is validated, so an anonymous
 * caller gets 401 and not a remark about the body.
 */
export type Access = 'public' | 'signed-in' | 'password-change';

function accessGuard(access: Access): MiddlewareHandler<AppEnv>[] {
  if (access === 'public') return [];
  return [
    async (c, next) => {
      requireActor(c, { allowPasswordChangePending: access === 'password-change' });
      await next();
    },
  ];
}

const idParams = z.object({ id: z.string().min(1).max(64) });

/** A multipart body with one file field, documented only: the handler reads it itself (no zod validation). */
function uploadBody(field: string) {
  return {
    content: {
      'multipart/form-data': {
        schema: {
          type: 'object' as const,
          properties: { [field]: { type: 'string' as const, format: 'binary' } },
          required: [field],
        },
      },
    },
    required: true,
  };
}

/**
 * Declares a documented route: its body schema (JSON) or an upload (multipart with one file field),
 * path params and the usual failures.
 */
export function apiRoute<
  Body extends z.ZodType | undefined = undefined,
  Params extends z.ZodObject | undefined = undefined,
>(options: {
  method: Method;
  path: string;
  tag: string;
  summary: string;
  body?: Body;
  /** The file field of a multipart upload (e.g. `image`). */
  upload?: string;
  params?: Params;
  access?: Access;
}) {
  const access = options.access ?? 'signed-in';
  return createRoute({
    method: options.method,
    path: options.path,
    tags: [options.tag],
    summary: options.summary,
    security: access === 'public' ? [] : [{ bearer: [] }],
    middleware: accessGuard(access),
    request: {
      ...(options.params ? { params: options.params } : {}),
      ...(options.body ? { body: { content: { 'application/json': { schema: options.body } }, required: true } } : {}),
      ...(options.upload ? { body: uploadBody(options.upload) } : {}),
    } as {
      params: Params extends z.ZodObject ? Params : never;
      body: Body extends z.ZodType ? { content: { 'application/json': { schema: Body } }; required: true } : never;
    },
    responses: {
      200: { description: '`{ success: true, ... }`' },
      400: { description: 'Bad input: `{ success: false, message, code }`' },
      401: { description: 'Not signed in' },
      403: { description: 'Forbidden' },
      404: { description: 'Not found' },
      ...(options.upload ? { 413: { description: 'File too large' } } : {}),
    },
  });
}

export { idParams, z };
