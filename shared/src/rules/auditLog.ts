import { toCsv } from './csv.js';

/*
 * The audit log as people read it (docs/architecture.md, Audit log): what an entry changed, field by
 * field, and the log's CSV. Money fields (`…_cents`) read as euros.
 */

/** One changed field: its name, and its value before and after (undefined: not there). */
export interface AuditChange {
  field: string;
  before: unknown;
  after: unknown;
}

/** The fields an entry names, before's order first, each with both values. */
export function auditChanges(before: Record<string, unknown> | null, after: Record<string, unknown> | null): AuditChange[] {
  const fields = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  return fields.map((field) => ({ field, before: before?.[field], after: after?.[field] }));
}

/** A value as the log shows it: cents as euros (`12,50`), nothing as `–`, anything else as its text. */
export function auditValueText(field: string, value: unknown): string {
  if (value === undefined || value === null || value === '') return '–';
  if (field.endsWith('_cents') && typeof value === 'number') return (value / 100).toFixed(2).replace('.', ',');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** The fields of a log row the CSV writes. */
export interface AuditCsvRow {
  at: string;
  actor_name: string | null;
  actor_id: string;
  kind: string;
  action: string;
  username: string | null;
  event_title: string | null;
  entity_id: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

/** The log as a spreadsheet: one line per entry, the changes as `field: before → after`. */
export function auditCsv(rows: readonly AuditCsvRow[], header: readonly string[]): string {
  return toCsv(
    header,
    rows.map((row) => [
      row.at,
      row.actor_name ?? row.actor_id,
      row.kind,
      row.action,
      row.username ?? '',
      row.event_title ?? '',
      row.entity_id ?? '',
      auditChanges(row.before, row.after)
        .map(
          (change) =>
            `${change.field}: ${auditValueText(change.field, change.before)} → ${auditValueText(change.field, change.after)}`,
        )
        .join('; '),
    ]),
  );
}
