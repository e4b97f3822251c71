import fs from 'node:fs';
import path from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import type { Api, AppDeps } from './context.js';
import { failure } from './errors.js';

const UPLOAD_NAME = /^[a-zA-Z0-9_-]{8,80}\.(?:jpg|jpeg|png|gif|webp|svg)$/;

/**
 * The robots file (docs/architecture.md, Transfer and caching): a crawler sees only the sign-in
 * page of this private club app, so the pages stay crawlable (one public entry to find the club by)
 * and only the API and the uploaded club images are kept out.
 */
export const ROBOTS_TXT = ['User-agent: *', 'Disallow: /api/', 'Disallow: /uploads/', ''].join('\n');

/**
 * robots.txt, uploaded images from UPLOADS_DIR (strict names), and the built client with SPA
 * fallback.
 */
export function staticRoutes(app: Api, deps: AppDeps): void {
  app.get('/robots.txt', (c) => {
    c.header('Cache-Control', 'public, max-age=86400');
    return c.text(ROBOTS_TXT);
  });
  const uploadsDir = deps.config.uploadsDir;
  app.get('/uploads/:name', async (c, next) => {
    if (!UPLOAD_NAME.test(c.req.param('name'))) return failure(c, 404, 'notFound');
    return serveStatic({ root: uploadsDir, rewriteRequestPath: (p) => p.replace(/^\/uploads/, '') })(c, next);
  });

  const clientDir = deps.config.clientDir;
  if (!clientDir || !fs.existsSync(path.join(clientDir, 'index.html'))) return;
  const indexFile = path.join(clientDir, 'index.html');

  app.use('*', async (c, next) => {
    await next();
    // The service worker and the app shell must never be cached by HTTP, or updates would not arrive.
    if (c.req.path === '/sw.js' || c.req.path === '/index.html') {
      c.header('Cache-Control', 'no-cache');
    } else if (c.req.path.startsWith('/assets/')) {
      c.header('Cache-Control', 'public, max-age=31536000, immutable');
    }
  });
  app.get('*', serveStatic({ root: clientDir }));
  app.get('*', async (c) => {
    if (c.req.path.startsWith('/api/') || c.req.path.startsWith('/uploads/')) return failure(c, 404, 'notFound');
    c.header('Cache-Control', 'no-cache');
    // Read on every request: a rebuilt client must never be answered with an index naming deleted assets.
    return c.html(await fs.promises.readFile(indexFile, 'utf8'));
  });
}
