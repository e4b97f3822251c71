import type { AuditAnswer, AuditQuery } from '@fankurve/shared';
import { api } from './client.js';

/* The audit log (docs/architecture.md, Audit log): admins read it online, a page at a time. */

export type AuditPage = Pick<AuditAnswer, 'entries' | 'next'>;
export type AuditEntry = AuditAnswer['entries'][number];

/** GET /api/audit with the filters set (empty ones left out). */
export function fetchAudit(query: AuditQuery, signal?: AbortSignal): Promise<AuditPage> {
  const params = new URLSearchParams(Object.entries(query).filter((pair): pair is [string, string] => Boolean(pair[1])));
  const search = params.size > 0 ? `?${params}` : '';
  return api<AuditAnswer>(`/api/audit${search}`, { signal });
}

/** Every page of the filtered log, newest first (the CSV). */
export async function fetchWholeAudit(query: Omit<AuditQuery, 'before'>): Promise<AuditEntry[]> {
  const entries: AuditEntry[] = [];
  let before: string | undefined;
  do {
    const page = await fetchAudit({ ...query, before });
    entries.push(...page.entries);
    before = page.next ?? undefined;
  } while (before);
  return entries;
}
