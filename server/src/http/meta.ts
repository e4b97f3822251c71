import { versionAnswer } from '@fankurve/shared';
import type { Api, AppDeps } from './context.js';
import { apiRoute } from './openapi.js';

const tag = 'Config';

/** The running version. The configuration itself is in config.ts. */
export function metaRoutes(app: Api, deps: AppDeps): void {
  app.openapi(
    apiRoute({
      method: 'get',
      path: '/api/version',
      tag,
      summary: 'The running version',
      access: 'public',
      answers: { 200: versionAnswer },
    }),
    (c) => c.json({ success: true as const, version: deps.version }, 200),
  );
}
