import { creatableFields, type PushRules, type SyncedDoc } from '@fankurve/shared';
import { sameValue, type MasterDocument, type PushedChange } from './collection.js';
import type { PushedDocument, PushRow } from './protocol.js';

/**
 * The three-way field merge of a pushed row (docs/architecture.md, sync: push). A pushable field
 * counts as changed only where the device's new state differs from the state it last had from the
 * server (`assumedMasterState`); fields it did not change keep the server's value, whatever the
 * server has now. A row without an assumed state is a document the device created: all its
 * pushable fields count. Returns null when the row changes nothing (a retry, a re-sent row).
 */
export function changeOfRow<Doc extends SyncedDoc>(
  rules: PushRules<Doc>,
  row: PushRow,
  master: MasterDocument<Doc> | undefined,
): PushedChange<Doc> | null {
  const sent = row.newDocumentState;
  const base = row.assumedMasterState ?? null;
  const sentDeleted = sent._deleted === true;
  const masterLive = master !== undefined && !master._deleted;
  const change = (kind: PushedChange<Doc>['kind'], fields: Partial<Doc>): PushedChange<Doc> => ({
    id: sent.id,
    kind,
    fields,
    sent,
    master,
  });

  if (base === null || base._deleted === true) {
    // A document the device created (or re-created under an id it had seen deleted).
    if (sentDeleted) return null;
    const fields = pick<Doc>(sent, masterLive ? rules.fields : creatableFields(rules));
    return change(masterLive ? 'update' : 'create', fields);
  }
  if (sentDeleted) return masterLive ? change('delete', {}) : null;
  const fields = changedFields(rules.fields, base, sent);
  return Object.keys(fields).length === 0 ? null : change('update', fields as Partial<Doc>);
}

function pick<Doc>(doc: PushedDocument, fields: readonly string[]): Partial<Doc> {
  return Object.fromEntries(fields.filter((field) => field in doc).map((field) => [field, doc[field]])) as Partial<Doc>;
}

function changedFields(fields: readonly string[], base: PushedDocument, sent: PushedDocument): Record<string, unknown> {
  return Object.fromEntries(
    fields.filter((field) => field in sent && !sameValue(sent[field], base[field])).map((field) => [field, sent[field]]),
  );
}
