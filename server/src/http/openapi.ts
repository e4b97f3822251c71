import { createRoute, z } from '@hono/zod-openapi';

type Method = 'get' | 'post' | 'put' | 'delete';

const idParams = z.object({ id: z.string().min(1).max(64) });

/** Declares a documented route: its body schema (JSON), path params and the usual failures. */
export function apiRoute<Body extends z.ZodType | undefined = undefined, Params extends z.ZodObject | undefined = undefined>(options: {
  method: Method;
  path: string;
  tag: string;
  summary: string;
  body?: Body;
  params?: Params;
}) {
  return createRoute({
    method: options.method,
    path: options.path,
    tags: [options.tag],
    summary: options.summary,
    security: [{ bearer: [] }],
    request: {
      ...(options.params ? { params: options.params } : {}),
      ...(options.body ? { body: { content: { 'application/json': { schema: options.body } }, required: true } } : {}),
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
    },
  });
}

export { idParams, z };
