import {
  CLUB_CASH_DESK,
  TRANSFER_STATUSES,
  type AttendeeDoc,
  type EventDoc,
  type Language,
  type MemberDoc,
  type TransferStatus,
} from '@fankurve/shared';
import { centsToInputText, formatMoney } from '@fankurve/shared/rules/money';
import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MoneyInput } from '../../ui/MoneyField.js';
import { deleteGuest, removeAttendee, updateAttendee } from '../../api/eventDetail.js';
import { errorText } from '../../i18n/index.js';
import { shownName } from '../../i18n/memberNames.js';
import { ConfirmDialog } from '../../ui/Dialog.js';
import { SlicedItems, SlicesRoom, useRenderSlices } from '../../ui/renderSlices.js';
import { toastError, toastSuccess } from '../../ui/toast.js';
import { beyondContingent, type BeyondContingent } from '../contingents/index.js';
import { AddAttendee } from './AddAttendee.js';
import {
  attendanceCounts,
  attendeeRows,
  boughtDraft,
  draftBody,
  draftValues,
  pickableMembers,
  ticketLabelOf,
  type AttendeeRow,
  type RowDraft,
  type TicketChoice,
} from './attendeeTable.js';
import { SaveCancel } from './SaveCancel.js';
import type { Access } from './shared.js';

interface Props {
  event: EventDoc;
  attendees: readonly AttendeeDoc[];
  members: readonly MemberDoc[];
  names: ReadonlyMap<string, string>;
  access: Access;
  language: Language;
}

/** A row's changed fields, as PUT /api/attendees/{id} takes them. */
type RowChange = { row: AttendeeRow; body: NonNullable<Extract<ReturnType<typeof draftBody>, { ok: true }>['body']> };

const TRANSFER_KEYS = {
  outstanding: 'eventDetail.transferOutstanding',
  reserved: 'eventDetail.transferReserved',
  waiting_list: 'eventDetail.transferWaitingList',
} as const satisfies Record<TransferStatus, string>;

const FLAG_COLUMNS = {
  bought: 'eventDetail.colBought',
  paid: 'eventDetail.colPaid',
  received: 'eventDetail.colReceived',
} as const;

/**
 * Everyone who answered, members and guests (9 columns). Admins get an edit mode with a 10th
 * column: ticket option, payer, bought / paid / received and transfer status are edited in drafts and
 * saved together (PUT /api/attendees/{id} per changed row); removing asks first.
 */
export function AttendeeTable({ event, attendees, members, names, access, language }: Props) {
  const { t } = useTranslation();
  const id = useId();
  const [editing, setEditing] = useState(false);
  const [drafts, setDrafts] = useState<Record<string, RowDraft>>({});
  const [saving, setSaving] = useState(false);
  const [removing, setRemoving] = useState<AttendeeRow | null>(null);
  const [removeBusy, setRemoveBusy] = useState(false);
  const [beyondCheck, setBeyondCheck] = useState<{ beyond: BeyondContingent; changes: RowChange[] } | null>(null);

  const rows = useMemo(() => attendeeRows(attendees, names, t('eventDetail.unknownMember')), [attendees, names, t]);
  const slices = useRenderSlices<HTMLTableSectionElement>(rows.length);
  const counts = attendanceCounts(attendees);
  const options = event.ticket_prices;
  const payers = useMemo(() => pickableMembers(members), [members]);
  // A payer erased since keeps their row's choice; no other row is offered them.
  const payersFor = (chosen: string) =>
    chosen && !payers.some((member) => member.id === chosen) ? pickableMembers(members, chosen) : payers;
  const editMode = editing && access.isAdmin;

  const displayName = (row: AttendeeRow) =>
    row.isGuest ? t('eventDetail.guestOf', { name: row.name, host: row.host }) : row.name;
  const payerName = (paidBy: string | null) =>
    paidBy === null
      ? '–'
      : paidBy === CLUB_CASH_DESK
        ? t('eventDetail.clubCashDesk')
        : (names.get(paidBy) ?? t('eventDetail.unknownMember'));

  const setDraft = (rowId: string, patch: RowDraft) =>
    setDrafts((current) => ({ ...current, [rowId]: { ...current[rowId], ...patch } }));

  function cancel() {
    setDrafts({});
    setEditing(false);
  }

  async function save() {
    const changes: RowChange[] = [];
    for (const row of rows) {
      const result = draftBody(row.doc, drafts[row.doc.id], options);
      if (!result.ok) {
        toastError(t('eventDetail.validation.rowPriceInvalid', { name: displayName(row) }));
        return;
      }
      if (result.body) changes.push({ row, body: result.body });
    }
    if (changes.length === 0) {
      cancel();
      return;
    }
    // Requests newly marked bought: beyond the contingent's free tickets the admin confirms first.
    setSaving(true);
    try {
      const beyond = await beyondContingent(
        event.id,
        changes.map(({ row, body }) => ({ before: row.doc, bought: body.bought })),
      );
      if (beyond) {
        setSaving(false);
        setBeyondCheck({ beyond, changes });
        return;
      }
    } catch (error) {
      setSaving(false);
      toastError(errorText(error, 'errors.saveChangesFailed'));
      return;
    }
    await commit(changes);
  }

  async function commit(changes: RowChange[]) {
    setBeyondCheck(null);
    setSaving(true);
    const results = await Promise.allSettled(changes.map(({ row, body }) => updateAttendee(row.doc.id, body)));
    setSaving(false);
    const failed = results.flatMap((result, index) =>
      result.status === 'rejected' ? [{ ...changes[index]!, error: result.reason }] : [],
    );
    if (failed.length === 0) {
      toastSuccess(t('eventDetail.changesSaved'));
      cancel();
      return;
    }
    // Keep only the drafts that did not reach the server, so a second Save retries just those.
    const failedIds = new Set(failed.map(({ row }) => row.doc.id));
    setDrafts((current) => Object.fromEntries(Object.entries(current).filter(([rowId]) => failedIds.has(rowId))));
    toastError(errorText(failed[0]!.error, 'errors.saveChangesFailed'));
  }

  async function remove() {
    if (!removing) return;
    const row = removing;
    setRemoveBusy(true);
    try {
      if (row.isGuest) await deleteGuest(row.doc.id);
      else if (row.doc.user_id) await removeAttendee(event.id, row.doc.user_id);
      setDrafts((current) => Object.fromEntries(Object.entries(current).filter(([rowId]) => rowId !== row.doc.id)));
      setRemoving(null);
    } catch (error) {
      toastError(errorText(error, 'errors.removeAttendanceFailed'));
    } finally {
      setRemoveBusy(false);
    }
  }

  const check = (value: boolean) => (
    <span className={value ? 'flag flag-yes' : 'flag flag-no'}>
      <span aria-hidden="true">{value ? '✓' : '–'}</span>
      <span className="sr-only">{value ? t('eventDetail.yes') : t('eventDetail.no')}</span>
    </span>
  );

  function ticketCell(doc: AttendeeDoc) {
    const label = ticketLabelOf(doc, options);
    if (label.kind === 'free') return t('eventDetail.ticketFree');
    // A bought ticket whose price is not known yet says so (never 0,00 €, never "no ticket").
    if (label.kind === 'tbd' || (label.kind === 'none' && doc.bought)) return t('tickets.priceOpen');
    if (label.kind === 'price')
      return label.type ? `${label.type} · ${formatMoney(label.cents, language)}` : formatMoney(label.cents, language);
    return '–';
  }

  function needCell(doc: AttendeeDoc) {
    if (doc.has_ticket) return t('eventDetail.hasTicketShort');
    if (doc.needs_ticket) return t('eventDetail.needsTicketShort');
    return '–';
  }

  function transportCell(doc: AttendeeDoc) {
    if (!doc.needs_transport) return <span className="muted">{t('eventDetail.ownTransport')}</span>;
    const status = doc.transfer_status ?? 'outstanding';
    return <span className={`transfer transfer-${status}`}>{t(TRANSFER_KEYS[status])}</span>;
  }

  function editCells(row: AttendeeRow) {
    const doc = row.doc;
    const name = displayName(row);
    const values = draftValues(doc, drafts[doc.id], options);
    return (
      <>
        <td>
          <div className="cell-stack">
            <select
              aria-label={`${t('eventDetail.colTicket')}: ${name}`}
              value={values.ticket}
              onChange={(e) => {
                const ticket = e.target.value as TicketChoice;
                const customPrice =
                  ticket === 'custom' && !values.customPrice && event.ticket_price_cents > 0
                    ? centsToInputText(event.ticket_price_cents)
                    : undefined;
                setDraft(doc.id, customPrice === undefined ? { ticket } : { ticket, customPrice });
              }}
            >
              <option value="">{t('eventDetail.ticketNone')}</option>
              {options.map((option) => (
                <option key={option.id} value={`option:${option.id}`}>
                  {option.ticket_type} · {formatMoney(option.price_cents, language)}
                </option>
              ))}
              <option value="custom">{t('eventDetail.ticketCustom')}</option>
              <option value="free">{t('eventDetail.ticketFree')}</option>
              <option value="tbd">{t('eventDetail.ticketTbd')}</option>
            </select>
            {values.ticket === 'custom' ? (
              <MoneyInput
                className="price-input"
                aria-label={`${t('eventDetail.priceEuro')}: ${name}`}
                value={values.customPrice}
                onValueChange={(customPrice) => setDraft(doc.id, { customPrice })}
                tidy
              />
            ) : null}
          </div>
        </td>
        <td>
          <select
            aria-label={`${t('eventDetail.colPaidBy')}: ${name}`}
            value={values.paid_by}
            onChange={(e) => setDraft(doc.id, { paid_by: e.target.value })}
          >
            <option value="">–</option>
            <option value={CLUB_CASH_DESK}>{t('eventDetail.clubCashDesk')}</option>
            {payersFor(values.paid_by).map((member) => (
              <option key={member.id} value={member.id}>
                {shownName(member.username)}
              </option>
            ))}
          </select>
        </td>
        {(['bought', 'paid', 'received'] as const).map((field) => (
          <td key={field} className="cell-center">
            <input
              type="checkbox"
              aria-label={`${t(FLAG_COLUMNS[field])}: ${name}`}
              checked={values[field]}
              onChange={(e) =>
                setDraft(
                  doc.id,
                  field === 'bought' && e.target.checked
                    ? boughtDraft(values, event.ticket_price_cents, options)
                    : { [field]: e.target.checked },
                )
              }
            />
          </td>
        ))}
        <td>
          {doc.needs_transport ? (
            <select
              aria-label={`${t('eventDetail.colTransport')}: ${name}`}
              value={values.transfer_status}
              onChange={(e) => setDraft(doc.id, { transfer_status: e.target.value as TransferStatus })}
            >
              {TRANSFER_STATUSES.map((status) => (
                <option key={status} value={status}>
                  {t(TRANSFER_KEYS[status])}
                </option>
              ))}
            </select>
          ) : (
            <span className="muted">{t('eventDetail.ownTransport')}</span>
          )}
        </td>
        <td>
          <button
            type="button"
            className="button button-small button-danger-ghost"
            disabled={!access.online}
            onClick={() => setRemoving(row)}
            aria-label={`${t('eventDetail.remove')}: ${name}`}
          >
            {t('eventDetail.remove')}
          </button>
        </td>
      </>
    );
  }

  function viewCells(doc: AttendeeDoc) {
    return (
      <>
        <td>{ticketCell(doc)}</td>
        <td>{payerName(doc.paid_by)}</td>
        <td className="cell-center">{check(doc.bought)}</td>
        <td className="cell-center">
          {check(doc.paid)}
          {doc.paid_requested && !doc.paid && !doc.received ? (
            <span className="badge badge-amber request-hint">{t('eventDetail.requested')}</span>
          ) : null}
        </td>
        <td className="cell-center">
          {check(doc.received)}
          {doc.received_requested && !doc.received ? (
            <span className="badge badge-amber request-hint">{t('eventDetail.requested')}</span>
          ) : null}
        </td>
        <td>{transportCell(doc)}</td>
      </>
    );
  }

  return (
    <section className={`card detail-card attendee-card${editMode ? ' is-editing' : ''}`} aria-labelledby={`${id}-title`}>
      <div className="card-head">
        <h2 id={`${id}-title`} className="card-title">
          {t('eventDetail.attendees')}
        </h2>
        <p className="event-counts">
          <span className="count count-going">{t('eventDetail.goingCount', { count: counts.going })}</span>
          <span className="count count-maybe">{t('eventDetail.maybeCount', { count: counts.maybe })}</span>
        </p>
        {access.isAdmin ? (
          <div className="card-head-actions">
            {editMode ? (
              <SaveCancel saving={saving} online={access.online} onCancel={cancel} onSave={() => void save()} />
            ) : (
              <button
                type="button"
                className="button button-ghost"
                disabled={!access.online || rows.length === 0}
                onClick={() => setEditing(true)}
              >
                {t('eventDetail.editAttendees')}
              </button>
            )}
          </div>
        ) : null}
      </div>
      {access.isAdmin && !access.online ? <p className="offline-hint">{t('eventDetail.offlineHint')}</p> : null}
      {rows.length === 0 ? (
        <p className="muted">{t('eventDetail.noAttendees')}</p>
      ) : (
        <div className="table-scroll" role="region" aria-label={t('eventDetail.attendeeList')} tabIndex={0}>
          <table className={`attendee-table${editMode ? ' is-editing' : ''}`}>
            <thead>
              <tr>
                <th scope="col">{t('eventDetail.colName')}</th>
                <th scope="col">{t('eventDetail.colStatus')}</th>
                <th scope="col">{t('eventDetail.colNeed')}</th>
                <th scope="col">{t('eventDetail.colTicket')}</th>
                <th scope="col">{t('eventDetail.colPaidBy')}</th>
                <th scope="col">{t('eventDetail.colBought')}</th>
                <th scope="col">{t('eventDetail.colPaid')}</th>
                <th scope="col">{t('eventDetail.colReceived')}</th>
                <th scope="col">{t('eventDetail.colTransport')}</th>
                {editMode ? <th scope="col">{t('eventDetail.colActions')}</th> : null}
              </tr>
            </thead>
            <tbody ref={slices.listRef}>
              <SlicedItems items={rows} slices={slices} keyOf={(row) => row.doc.id}>
                {(row) => (
                  <tr
                    className={
                      [row.isGuest ? 'row-guest' : '', row.doc.user_id === access.userId ? 'row-own' : ''].join(' ').trim() ||
                      undefined
                    }
                  >
                    <th scope="row">
                      {row.isGuest ? (
                        <>
                          {row.name} <span className="guest-host">({t('eventDetail.guestOfHost', { host: row.host })})</span>
                        </>
                      ) : (
                        row.name
                      )}
                    </th>
                    <td>
                      <span className={`status status-${row.doc.status}`}>
                        {row.doc.status === 'going' ? t('eventDetail.statusGoing') : t('eventDetail.statusMaybe')}
                      </span>
                    </td>
                    <td>{needCell(row.doc)}</td>
                    {editMode ? editCells(row) : viewCells(row.doc)}
                  </tr>
                )}
              </SlicedItems>
            </tbody>
          </table>
          <SlicesRoom slices={slices} />
        </div>
      )}
      {access.isAdmin ? <AddAttendee eventId={event.id} attendees={attendees} members={members} online={access.online} /> : null}
      {beyondCheck ? (
        <ConfirmDialog
          title={t('contingents.beyondConfirmTitle')}
          message={t('contingents.beyondConfirm', {
            count: beyondCheck.beyond.beyond,
            tickets: beyondCheck.beyond.tickets,
            free: beyondCheck.beyond.free,
          })}
          confirmLabel={t('contingents.beyondConfirmSave')}
          busy={saving}
          onConfirm={() => void commit(beyondCheck.changes)}
          onCancel={() => setBeyondCheck(null)}
        />
      ) : null}
      {removing ? (
        <ConfirmDialog
          title={t('eventDetail.removeAttendeeTitle')}
          message={t('eventDetail.removeAttendeeText', { name: displayName(removing) })}
          confirmLabel={t('eventDetail.remove')}
          busy={removeBusy}
          onConfirm={() => void remove()}
          onCancel={() => setRemoving(null)}
        />
      ) : null}
    </section>
  );
}
