import { createRoute, z } from '@hono/zod-openapi';
import { errorAnswer } from '@fankurve/shared';
import type { MiddlewareHandler } from 'hono';
import { requireAdmin } from '../domain/actor.js';
import type { AppEnv } from './context.js';
import { requireActor } from './session.js';

type Method = 'get' | 'post' | 'put' | 'delete';

/**
 * Who may call a route: anyone, a signed-in user, a signed-in user who still has to change the
 * password, or an admin. The check runs as route middleware, before the body is validated, so an
 * anonymous caller gets 401 and not a remark about the body. 'admin' is for the routes whose
 * members must learn 403 before anything about their input; the domain function checks anyway.
 */
export type Access = 'public' | 'signed-in' | 'password-change' | 'admin';

function accessGuard(access: Access): MiddlewareHandler<AppEnv>[] {
  if (access === 'public') return [];
  return [
    async (c, next) => {
      const actor = requireActor(c, { allowPasswordChangePending: access === 'password-change' });
      if (access === 'admin') requireAdmin(actor);
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
 * One answer of a route (docs/architecture.md, "REST answers"): its JSON schema from
 * shared/src/schemas/answers; or the schema with a description and, when it is no plain JSON, its
 * media type; or only a description, for an answer without a body (304).
 */
export type AnswerSpec = z.ZodType | { schema: z.ZodType; description?: string; mediaType?: string } | { description: string };

/** The answers of a route by status code. */
export type Answers = { [status: number]: AnswerSpec };

type Json<S extends z.ZodType> = { description: string; content: { 'application/json': { schema: S } } };

/** The OpenAPI response of an answer, typed so that the handler's `c.json(...)` is checked against its schema. */
type ResponseOf<A extends AnswerSpec> = A extends z.ZodType
  ? Json<A>
  : A extends { schema: infer S extends z.ZodType; mediaType: infer M extends string }
    ? { description: string; content: { [K in M]: { schema: S } } }
    : A extends { schema: infer S extends z.ZodType }
      ? Json<S>
      : { description: string };

/** The failures every route declares (413 only uploads), answered with the shared error answer unless the route names its own. */
type Failure<Upload> = 400 | 401 | 403 | 404 | (Upload extends string ? 413 : never);
type Responses<A extends Answers, Upload> = {
  [S in keyof A | Failure<Upload>]: S extends keyof A
    ? A[S] extends AnswerSpec
      ? ResponseOf<A[S]>
      : never
    : Json<typeof errorAnswer>;
};

/** A route that names no answers yet: documented without a schema, so its handler's answers go unchecked. */
type Undeclared = { 200: { description: string } };

const STATUS_TEXT: Record<number, string> = {
  200: 'Success',
  201: 'Created',
  304: 'Not modified',
  400: 'Bad input',
  401: 'Not signed in',
  403: 'Forbidden',
  404: 'Not found',
  409: 'Conflict',
  413: 'File too large',
  500: 'Server error',
  502: 'The match service failed',
};

function responseOf(status: number, answer: AnswerSpec) {
  const spec: { schema?: z.ZodType; description?: string; mediaType?: string } =
    answer instanceof z.ZodType ? { schema: answer } : answer;
  const description = spec.description ?? STATUS_TEXT[status] ?? 'Answer';
  if (!spec.schema) return { description };
  return { description, content: { [spec.mediaType ?? 'application/json']: { schema: spec.schema } } };
}

/**
 * Declares a documented route: its body schema (JSON) or an upload (multipart with one file field),
 * path params, who may call it, and its answers by status. Every failure the route declares without
 * a schema of its own (400, 401, 403, 404, and 413 for uploads) answers the shared error answer.
 * With every answer declared, TypeScript checks each `c.json(...)` of the handler against its
 * status's schema. A route declared inline in `app.openapi(...)` gives `c.json` no contextual type,
 * so handlers spell the literal out: `success: true as const`.
 */
export function apiRoute<
  Body extends z.ZodType | undefined = undefined,
  Params extends z.ZodObject | undefined = undefined,
  Upload extends string | undefined = undefined,
  A extends Answers = Undeclared,
>(options: {
  method: Method;
  path: string;
  tag: string;
  summary: string;
  body?: Body;
  /** The body may be left out (no JSON content type): the handler then sees `{}`. */
  bodyOptional?: boolean;
  /** The file field of a multipart upload (e.g. `image`). */
  upload?: Upload;
  params?: Params;
  access?: Access;
  /** The answers by status, e.g. `{ 200: eventDetailAnswer }` or `{ 201: eventCreatedAnswer }`. */
  answers?: A;
}) {
  const access = options.access ?? 'signed-in';
  const failures: Answers = { 400: errorAnswer, 401: errorAnswer, 403: errorAnswer, 404: errorAnswer };
  if (options.upload) failures[413] = errorAnswer;
  const answers: Answers = { ...failures, ...(options.answers ?? { 200: { description: '`{ success: true, ... }`' } }) };
  return createRoute({
    method: options.method,
    path: options.path,
    tags: [options.tag],
    summary: options.summary,
    security: access === 'public' ? [] : [{ bearer: [] }],
    middleware: accessGuard(access),
    request: {
      ...(options.params ? { params: options.params } : {}),
      ...(options.body
        ? { body: { content: { 'application/json': { schema: options.body } }, required: !options.bodyOptional } }
        : {}),
      ...(options.upload ? { body: uploadBody(options.upload) } : {}),
    } as {
      params: Params extends z.ZodObject ? Params : never;
      body: Body extends z.ZodType ? { content: { 'application/json': { schema: Body } }; required: true } : never;
    },
    responses: Object.fromEntries(
      Object.entries(answers).map(([status, answer]) => [status, responseOf(Number(status), answer)]),
    ) as Responses<A, Upload>,
  });
}

export { idParams, z };

/** The route with its query: `apiRoute` declares path and body; the query is validated and documented the same way. */
export function withQuery<R extends ReturnType<typeof apiRoute>, Q>(route: R, query: Q) {
  return { ...route, request: { ...route.request, query } };
}
