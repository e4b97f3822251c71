import { allocationOrder, type QueuedRequest } from '@fankurve/shared';
import { checkRequestNote, rankReasons } from '@fankurve/shared/rules/allocationReasons';
import { LOYALTY_NOTE_MAX_LENGTH } from '@fankurve/shared/rules/loyalty';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { setRequestFlags } from '../../api/contingents.js';
import { formatInstant } from '../../i18n/dates.js';
import { currentLanguage, errorText, messageText } from '../../i18n/index.js';
import { shownName } from '../../i18n/memberNames.js';
import { Modal } from '../../ui/Dialog.js';
import { Field } from '../../ui/Field.js';
import { RowActions, RowTable, TableScroll, type Column } from '../../ui/RowTable.js';
import { toastError, toastSuccess } from '../../ui/toast.js';
import { breakdownText } from './RequestExplanation.js';

type Row = QueuedRequest & { id: string };

/**
 * The queue as the device orders it after a pin or exclude, by the same shared rules as the server
 * (`allocationOrder`, and `rankReasons` for each place's reason), until the server's answer comes:
 * members rank by their points, a guest by their host's (a host with no request of their own counts
 * 0 here until then).
 */
function reordered(queue: readonly QueuedRequest[]): QueuedRequest[] {
  const points = new Map(queue.flatMap((entry) => (entry.user_id !== null ? [[entry.user_id, entry.points ?? 0] as const] : [])));
  const pointsOf = (userId: string) => points.get(userId) ?? 0;
  const requests = queue.map((entry) => ({ ...entry, brought_by: entry.host_id }));
  const reasons = rankReasons(requests, pointsOf);
  let rank = 0;
  return allocationOrder(requests, pointsOf).map(({ brought_by: _host, ...entry }) => ({
    ...entry,
    rank: entry.excluded ? null : ++rank,
    reason: reasons.get(entry.attendee_id) ?? entry.reason,
  }));
}

/**
 * The admin's queue: every request in allocation order with the reason of its place (points with
 * their breakdown, a tie broken by request time, a guest by their host, pinned or excluded with the
 * admin's note), pin, exclude and the note (online).
 */
export function RequestQueue({
  eventId,
  queue,
  online,
  onChange,
}: {
  eventId: string;
  queue: QueuedRequest[];
  online: boolean;
  onChange: () => void;
}) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const [shown, setShown] = useState(queue);
  const [busy, setBusy] = useState(false);
  const [noting, setNoting] = useState<QueuedRequest | null>(null);
  useEffect(() => setShown(queue), [queue]);

  async function toggle(entry: QueuedRequest, flag: 'pinned' | 'excluded') {
    const value = !entry[flag];
    setBusy(true);
    setShown((before) =>
      reordered(
        before.map((other) =>
          other.attendee_id === entry.attendee_id
            ? { ...other, [flag]: value, note: null, ...(value ? { [flag === 'pinned' ? 'excluded' : 'pinned']: false } : {}) }
            : other,
        ),
      ),
    );
    try {
      await setRequestFlags(eventId, entry.attendee_id, { [flag]: value });
    } catch (error) {
      toastError(errorText(error));
    } finally {
      setBusy(false);
      onChange();
    }
  }

  const nameOf = (entry: QueuedRequest) =>
    entry.kind === 'guest'
      ? t('contingents.queue.guestOf', { name: entry.guest_name ?? '', host: shownName(entry.host_username) ?? '?' })
      : (shownName(entry.username) ?? '?');
  const reasonText = (entry: QueuedRequest): string => {
    switch (entry.reason.kind) {
      case 'pinned':
        return t('contingents.queue.reasonPinned');
      case 'excluded':
        return t('contingents.queue.reasonExcluded');
      case 'guest':
        return t('contingents.queue.reasonGuest', { points: entry.reason.points ?? 0 });
      case 'points':
        return entry.loyalty ? breakdownText(t, entry.loyalty, 'short') : String(entry.points ?? 0);
    }
  };
  const columns: Column<Row>[] = [
    { header: t('contingents.queue.rank'), cell: (entry) => entry.rank ?? '–', num: true },
    { header: t('contingents.queue.name'), cell: nameOf },
    { header: t('contingents.queue.points'), cell: (entry) => entry.points ?? '–', num: true },
    {
      header: t('contingents.queue.requestedAt'),
      cell: (entry) => <time dateTime={entry.requested_at}>{formatInstant(entry.requested_at, language)}</time>,
    },
    { header: t('contingents.queue.state'), cell: (entry) => t(`contingents.states.${entry.state}`) },
    {
      header: t('contingents.queue.reason'),
      cell: (entry) => (
        <div className="queue-reason">
          <span>{reasonText(entry)}</span>
          {entry.reason.tie ? <span className="muted">{t('contingents.queue.tie')}</span> : null}
          {entry.note ? <span className="contingent-note">„{entry.note}“</span> : null}
          {entry.pinned || entry.excluded ? (
            <span>
              <button
                type="button"
                className="button button-small button-ghost"
                disabled={!online || busy}
                onClick={() => setNoting(entry)}
              >
                {t('contingents.queue.note')}
                <span className="sr-only"> {nameOf(entry)}</span>
              </button>
            </span>
          ) : null}
        </div>
      ),
    },
    {
      header: t('contingents.queue.actions'),
      cell: (entry) => (
        <RowActions>
          <button
            type="button"
            className="button button-small button-ghost"
            aria-pressed={entry.pinned}
            disabled={!online || busy}
            onClick={() => void toggle(entry, 'pinned')}
          >
            {t('contingents.queue.pin')}
            <span className="sr-only"> {nameOf(entry)}</span>
          </button>
          <button
            type="button"
            className="button button-small button-ghost"
            aria-pressed={entry.excluded}
            disabled={!online || busy}
            onClick={() => void toggle(entry, 'excluded')}
          >
            {t('contingents.queue.exclude')}
            <span className="sr-only"> {nameOf(entry)}</span>
          </button>
        </RowActions>
      ),
    },
  ];
  return (
    <section className="contingent-queue" aria-label={t('contingents.queue.heading')}>
      <h3 className="contingent-queue-title">
        {t('contingents.queue.heading')} <span className="badge badge-muted">{shown.length}</span>
      </h3>
      {shown.length === 0 ? (
        <p className="muted">{t('contingents.queue.empty')}</p>
      ) : (
        <TableScroll>
          <RowTable
            columns={columns}
            rows={shown.map((entry) => ({ ...entry, id: entry.attendee_id }))}
            className="queue-table"
          />
        </TableScroll>
      )}
      {noting ? (
        <NoteDialog
          eventId={eventId}
          entry={noting}
          name={nameOf(noting)}
          onClose={(saved) => {
            setNoting(null);
            if (saved) onChange();
          }}
        />
      ) : null}
    </section>
  );
}

/**
 * The admin's note on a pinned or excluded request (docs/product.md, Ticket contingents): the member
 * concerned reads it beside their place, nobody else does. Checked on the device with the server's
 * rule (`checkRequestNote`); empty removes it.
 */
function NoteDialog({
  eventId,
  entry,
  name,
  onClose,
}: {
  eventId: string;
  entry: QueuedRequest;
  name: string;
  onClose: (saved: boolean) => void;
}) {
  const { t } = useTranslation();
  const [note, setNote] = useState(entry.note ?? '');
  const [error, setError] = useState<string | undefined>();
  const [saving, setSaving] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (saving) return;
    const checked = checkRequestNote(note);
    if (!checked.ok) {
      setError(messageText(checked.code));
      return;
    }
    setError(undefined);
    setSaving(true);
    try {
      await setRequestFlags(eventId, entry.attendee_id, { note: checked.value ?? '' });
      toastSuccess(t('contingents.noteSaved'));
      onClose(true);
    } catch (failure) {
      toastError(errorText(failure));
      setSaving(false);
    }
  }

  return (
    <Modal title={t('contingents.noteTitle', { name })} onClose={() => onClose(false)} busy={saving} size="small">
      <form className="form" noValidate onSubmit={(event) => void submit(event)}>
        <Field
          label={t('contingents.noteField')}
          optional={t('contingents.optional')}
          name="note"
          value={note}
          onChange={(event) => setNote(event.target.value)}
          maxLength={LOYALTY_NOTE_MAX_LENGTH}
          hint={t('contingents.noteHint', { max: LOYALTY_NOTE_MAX_LENGTH })}
          error={error}
        />
        <div className="modal-actions">
          <button type="button" className="button button-secondary" onClick={() => onClose(false)} disabled={saving}>
            {t('common.cancel')}
          </button>
          <button type="submit" className="button button-primary" disabled={saving}>
            {saving ? t('contingents.saving') : t('contingents.save')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
