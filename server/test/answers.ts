import { errorAnswer } from '@fankurve/shared';
import { z } from 'zod';
import type { Api } from '../src/http/context.js';

/*
 * The answer schemas the routes declare (`apiRoute` answers, shared/src/schemas/answers), looked up
 * for a request the tests make, so every answer a test receives is checked against its route's
 * schema (docs/architecture.md, "REST answers"). No vitest here: helpers.ts also runs outside it.
 */

interface DeclaredRoute {
  method: string;
  pattern: RegExp;
  params: number;
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}

const routeTables = new WeakMap<Api, DeclaredRoute[]>();

function routesOf(app: Api): DeclaredRoute[] {
  let routes = routeTables.get(app);
  if (!routes) {
    routes = app.openAPIRegistry.definitions.flatMap((definition) => {
      if (definition.type !== 'route') return [];
      const { method, path, responses } = definition.route;
      const source = path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+');
      return [
        {
          method: method.toUpperCase(),
          pattern: new RegExp(`^${source}$`),
          params: (path.match(/\{/g) ?? []).length,
          responses: responses as DeclaredRoute['responses'],
        },
      ];
    });
    // A literal segment wins over a parameter (/api/auth/users/all before /api/auth/users/{id}), as in the app.
    routes.sort((a, b) => a.params - b.params);
    routeTables.set(app, routes);
  }
  return routes;
}

/**
 * The schema a route declares for an answer: `undefined` for a route the document does not have, a
 * status it declares without a body, or a route that names no answers yet (its 2xx has no schema).
 */
export function declaredAnswer(app: Api, method: string, url: string, status: number): z.ZodType | undefined {
  const path = new URL(url, 'http://test').pathname;
  const route = routesOf(app).find((candidate) => candidate.method === method.toUpperCase() && candidate.pattern.test(path));
  const content = route?.responses[String(status)]?.content;
  const schema = content && Object.values(content)[0]?.schema;
  return schema instanceof z.ZodType ? schema : undefined;
}

/**
 * Throws when a JSON answer strays from its route's declared schema. A failure a route does not
 * declare (409, 413, 415, 429, 500 …) must still be the shared error answer.
 */
export function checkAnswer(
  app: Api,
  method: string,
  url: string,
  status: number,
  contentType: string | null,
  body: unknown,
): void {
  if (method.toUpperCase() === 'HEAD' || !contentType || !/json/i.test(contentType)) return;
  const schema = declaredAnswer(app, method, url, status) ?? (status >= 400 ? errorAnswer : undefined);
  if (!schema) return;
  const result = schema.safeParse(body);
  if (!result.success) {
    throw new Error(
      `${method} ${url} answered ${status} outside its declared schema:\n${z.prettifyError(result.error)}\n${JSON.stringify(body)}`,
    );
  }
}
