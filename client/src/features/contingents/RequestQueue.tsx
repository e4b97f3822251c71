import { allocationOrder, type QueuedRequest } from '@fankurve/shared';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { setRequestFlags } from '../../api/contingents.js';
import { formatInstant } from '../../i18n/dates.js';
import { currentLanguage, errorText } from '../../i18n/index.js';
import { RowActions, RowTable, TableScroll, type Column } from '../../ui/RowTable.js';
import { toastError } from '../../ui/toast.js';

type Row = QueuedRequest & { id: string };

/**
 * The queue as the device orders it after a pin or exclude, by the same shared rule as the server
 * (`allocationOrder`), until the server's answer comes: members rank by their points, a guest by
 * their host's (a host with no request of their own counts 0 here until then).
 */
function reordered(queue: readonly QueuedRequest[]): QueuedRequest[] {
  const points = new Map(queue.flatMap((entry) => (entry.user_id !== null ? [[entry.user_id, entry.points ?? 0] as const] : [])));
  const order = allocationOrder(
    queue.map((entry) => ({ ...entry, brought_by: entry.host_id })),
    (userId) => points.get(userId) ?? 0,
  );
  let rank = 0;
  return order.map(({ brought_by: _host, ...entry }) => ({ ...entry, rank: entry.excluded ? null : ++rank }));
}

/** The admin's queue: every request in allocation order, with pin and exclude (online). */
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
  useEffect(() => setShown(queue), [queue]);

  async function toggle(entry: QueuedRequest, flag: 'pinned' | 'excluded') {
    const value = !entry[flag];
    setBusy(true);
    setShown((before) =>
      reordered(
        before.map((other) =>
          other.attendee_id === entry.attendee_id
            ? { ...other, [flag]: value, ...(value ? { [flag === 'pinned' ? 'excluded' : 'pinned']: false } : {}) }
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
      ? t('contingents.queue.guestOf', { name: entry.guest_name ?? '', host: entry.host_username ?? '?' })
      : (entry.username ?? '?');
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
    </section>
  );
}
