import type { Api, AppDeps } from './context.js';
import { apiRoute } from './openapi.js';

const tag = 'Config';

/** The running version (SPEC 7). The configuration itself is in config.ts. */
export function metaRoutes(app: Api, deps: AppDeps): void {
  app.openapi(apiRoute({ method: 'get', path: '/api/version', tag, summary: 'The running version', access: 'public' }), (c) =>
    c.json({ success: true, version: deps.version }, 200),
  );
}
