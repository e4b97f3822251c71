import type { MemberImportAnswer } from '@fankurve/shared';
import { api } from './client.js';

/**
 * POST /api/users/import (admin; docs/architecture.md, Member import): the list's rows with their
 * problems; with `confirm` the rows without one are created (`created` counts them).
 */
export function importMemberList(csv: string, confirm: boolean) {
  return api<MemberImportAnswer>('/api/users/import', { method: 'POST', body: { csv, confirm } });
}
