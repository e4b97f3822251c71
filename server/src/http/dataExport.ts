import { zipFileAnswer } from '@fankurve/shared';
import { exportMemberData, type DataExport } from '../domain/people/dataExport.js';
import type { Api, AppDeps } from './context.js';
import { apiRoute, idParams } from './openapi.js';
import { requireActor } from './session.js';

const tag = 'Users';

const ZIP = {
  schema: zipFileAnswer,
  mediaType: 'application/zip',
  description: 'The member’s data: JSON and CSV files in a ZIP',
} as const;

/** The archive as a download: its type and the name the browser saves it under. */
const zipHeaders = (file: DataExport) => ({
  'Content-Type': 'application/zip',
  'Content-Disposition': `attachment; filename="${file.filename}"`,
  'Cache-Control': 'no-store',
});

/** "My data" (docs/architecture.md, Data export): a member's own, or any member's for an admin. */
export function dataExportRoutes(app: Api, deps: AppDeps): void {
  app.openapi(
    apiRoute({
      method: 'get',
      path: '/api/me/export',
      tag,
      summary: 'Everything the app keeps about the signed-in member, as a ZIP of JSON and CSV files',
      answers: { 200: ZIP },
    }),
    async (c) => {
      const actor = requireActor(c);
      const file = await exportMemberData(deps.store.db, actor, actor.id, c.get('user')!.language);
      return c.body(file.bytes, 200, zipHeaders(file));
    },
  );

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/api/users/{id}/export',
      tag,
      summary: 'Everything the app keeps about a member, as a ZIP of JSON and CSV files (admin)',
      params: idParams,
      access: 'admin',
      answers: { 200: ZIP },
    }),
    async (c) => {
      const actor = requireActor(c);
      const file = await exportMemberData(deps.store.db, actor, c.req.valid('param').id, c.get('user')!.language);
      return c.body(file.bytes, 200, zipHeaders(file));
    },
  );
}
