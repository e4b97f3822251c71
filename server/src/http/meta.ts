import { getSiteConfig } from '../domain/settings.js';
import type { Api, AppDeps } from './context.js';
import { apiRoute } from './openapi.js';

const tag = 'Config';

export function metaRoutes(app: Api, deps: AppDeps): void {
  app.openapi(apiRoute({ method: 'get', path: '/api/version', tag, summary: 'The running version', access: 'public' }), (c) =>
    c.json({ success: true, version: deps.version }, 200),
  );

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/api/config',
      tag,
      summary: 'Site title, theme colour and logo (public)',
      access: 'public',
    }),
    async (c) => {
      const config = await getSiteConfig(deps.store.db);
      return c.json({ success: true, config: { ...config, time_zone: deps.config.clubTimeZone } }, 200);
    },
  );
}
