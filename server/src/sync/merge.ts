import { creatableFields, type PushRules, type SyncedDoc } from '@fankurve/shared';
import { sameValue, type MasterDocument, type PushedChange } from './collection.js';
import type { PushedDocument, PushRow } from './protocol.js';

/**
 * The three-way field merge of a pushed row (docs/architecture.md, sync: push). A pushable field
 * counts as changed only where the device's new state differs from the state it last had from the
 * server (`assumedMasterState`); fields it did not change keep the server's value, whatever the
 * server has now. A document the device created counts with all its pushable fields. Returns null
 * when the row changes nothing (a retry, a re-sent row, the server's own state sent back).
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

  if (isCreation(base, sent)) {
    // Deleted before the server acknowledged the creation (RxDB sends no assumed state until then):
    // if an earlier push created it, the device wants it gone.
    if (sentDeleted) return masterLive ? change('delete', {}) : null;
    const fields = pick<Doc>(sent, masterLive ? rules.fields : creatableFields(rules));
    return change(masterLive ? 'update' : 'create', fields);
  }
  const origin = originOf(base, sent, master);
  if (sentDeleted) return masterLive && origin._deleted !== true ? change('delete', {}) : null;
  const fields = changedFields(rules.fields, origin, sent);
  return Object.keys(fields).length === 0 ? null : change('update', fields as Partial<Doc>);
}

const seqOf = (doc: PushedDocument | MasterDocument): number => Number(doc.seq ?? 0);

/**
 * A document the device created (seq 0: it never came from the server), or re-created under an
 * id it had seen deleted. A document with a server seq but no assumed state is not new: the
 * device lost its record of what it had from the server (a replication state cut off mid-write).
 */
function isCreation(base: PushedDocument | null, sent: PushedDocument): boolean {
  if (base === null) return seqOf(sent) === 0;
  return base._deleted === true;
}

/**
 * The server state the device's new document derives from. Normally its assumed master. Devices
 * never change `seq`, so a new document whose seq differs from the assumed master's (or that has
 * none) was written by a pull the device had not recorded as its assumed master (RxDB's upstream
 * can read it in that moment, or the record was lost): its differences from the assumed master
 * are the server's own changes, not the device's. The base is then that server state: the current
 * document when it is still that version, otherwise the new document itself (nothing counts as
 * changed; the device adopts the server's document from the conflict answer).
 */
function originOf(base: PushedDocument | null, sent: PushedDocument, master: MasterDocument | undefined): PushedDocument {
  if (base !== null && seqOf(sent) === seqOf(base)) return base;
  return master && master.seq === seqOf(sent) ? (master as unknown as PushedDocument) : sent;
}

function pick<Doc>(doc: PushedDocument, fields: readonly string[]): Partial<Doc> {
  return Object.fromEntries(fields.filter((field) => field in doc).map((field) => [field, doc[field]])) as Partial<Doc>;
}

function changedFields(fields: readonly string[], base: PushedDocument, sent: PushedDocument): Record<string, unknown> {
  return Object.fromEntries(
    fields.filter((field) => field in sent && !sameValue(sent[field], base[field])).map((field) => [field, sent[field]]),
  );
}
