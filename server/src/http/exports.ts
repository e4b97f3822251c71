import { csvFileAnswer, todayIn } from '@fankurve/shared';
import { ticketsCsv, transportCsv, type CsvFile } from '../domain/events/exports.js';
import type { Api, AppDeps } from './context.js';
import { apiRoute, idParams } from './openapi.js';
import { requireActor } from './session.js';

const tag = 'Exports';

const CSV = { schema: csvFileAnswer, mediaType: 'text/csv', description: 'The CSV file (UTF-8 with BOM, semicolons)' } as const;

/** The file as a download: its type with the charset, and a name the browser saves it under. */
const csvHeaders = (file: CsvFile) => ({
  'Content-Type': 'text/csv; charset=utf-8',
  'Content-Disposition': `attachment; filename="${file.filename}"`,
  'Cache-Control': 'no-store',
});

/** The lists for the day of an event as CSV (admin; docs/architecture.md, Lists for the day). */
export function exportRoutes(app: Api, deps: AppDeps): void {
  app.openapi(
    apiRoute({
      method: 'get',
      path: '/api/events/{id}/export/tickets.csv',
      tag,
      summary:
        'Names for personalised tickets: the bought tickets, then those still needed, with member or guest and host, category, price, paid, received (admin)',
      params: idParams,
      access: 'admin',
      answers: { 200: CSV },
    }),
    async (c) => {
      const actor = requireActor(c);
      const file = await ticketsCsv(
        deps.store.db,
        actor,
        c.req.valid('param').id,
        c.get('user')!.language,
        todayIn(deps.config.clubTimeZone),
      );
      return c.body(file.text, 200, csvHeaders(file));
    },
  );

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/api/events/{id}/export/transport.csv',
      tag,
      summary:
        "Passengers of the event's transport with their seat state; the option's name when the event has exactly one (admin)",
      params: idParams,
      access: 'admin',
      answers: { 200: CSV },
    }),
    async (c) => {
      const actor = requireActor(c);
      const file = await transportCsv(deps.store.db, actor, c.req.valid('param').id, c.get('user')!.language);
      return c.body(file.text, 200, csvHeaders(file));
    },
  );
}
