import { todayIn } from '@fankurve/shared/dates';
import {
  ticketList,
  transportList,
  type DayListPerson,
  type TicketListRow,
  type TransportList,
} from '@fankurve/shared/rules/dayLists';
import { formatMoney } from '@fankurve/shared/rules/money';
import { useId, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { fetchEventCsv } from '../../api/exports.js';
import { useAttendees, useEvent, useEventRows, useMembers, useSyncState, useTransports } from '../../data/index.js';
import { formatEventDate } from '../../i18n/eventDates.js';
import { currentLanguage, errorText } from '../../i18n/index.js';
import { shownName } from '../../i18n/memberNames.js';
import { useUser } from '../../session/session.js';
import { useSiteConfig } from '../../session/siteConfig.js';
import { useContingent } from '../contingents/index.js';
import { AdminRequired } from '../../ui/AdminRequired.js';
import { Loading } from '../../ui/Loading.js';
import { toastError } from '../../ui/toast.js';
import './print.css';

/**
 * /events/{id}/print (admin): the lists for the day (docs/architecture.md, Lists for the day) — the
 * names for personalised tickets and the passengers — as tables for the printer, built from the
 * device's rows by the same rules as the server's CSV files (rules/dayLists.ts), and the two CSV
 * files to download (online). On a phone's screen each person is a block that fits its width.
 */
export function PrintListsPage() {
  const user = useUser();
  if (user.scope !== 'admin') return <AdminRequired />;
  return <PrintLists />;
}

function PrintLists() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const user = useUser();
  const language = currentLanguage();
  const event = useEvent(id);
  const attendees = useAttendees(id);
  const members = useMembers();
  const transports = useTransports(id);
  const online = useSyncState('online');
  const today = todayIn(useSiteConfig().time_zone);
  const eventRows = useEventRows(event, today);
  const names = useMemo(
    () =>
      new Map([
        [user.id, user.username],
        ...(members ?? []).map((member) => [member.id, shownName(member.username, language)] as const),
      ]),
    [members, user.id, user.username, language],
  );
  // The needed tickets in the contingent's queue order: read online, remembered for offline.
  const [contingent] = useContingent(id, user.id, online);
  const queueKey =
    contingent.state === 'ready' ? (contingent.answer.queue ?? []).map((request) => request.attendee_id).join(',') : '';
  const queue = useMemo(() => (queueKey ? queueKey.split(',') : []), [queueKey]);
  const lists = useMemo(
    () =>
      attendees && transports
        ? { tickets: ticketList(attendees, names, queue), transport: transportList(attendees, transports, names) }
        : null,
    [attendees, transports, names, queue],
  );

  if (event === undefined || lists === null || members === undefined) return <Loading />;
  if (event === null) {
    return (
      <section className="page">
        <div className="card empty-card">
          <h1>{t('eventDetail.notFoundTitle')}</h1>
          <Link className="button button-primary" to="/events">
            {t('eventDetail.backToEvents')}
          </Link>
        </div>
      </section>
    );
  }

  return (
    <div className="page print-lists">
      <Link className="back-link no-print" to={`/events/${event.id}`}>
        ← {t('account.print.back')}
      </Link>
      <header className="print-lists-head">
        <h1>{t('account.print.title')}</h1>
        <p className="print-lists-event">
          <strong>{event.title}</strong> · {formatEventDate(event.date, language)}
          {event.location ? ` · ${event.location}` : ''}
        </p>
      </header>
      <Actions eventId={event.id} />
      {eventRows.state === 'onDevice' ? (
        <>
          <TicketTable rows={lists.tickets} />
          <PassengerTable list={lists.transport} />
        </>
      ) : (
        <p className="card" role="status">
          {t(`eventDetail.rows.${eventRows.state}`)}
        </p>
      )}
    </div>
  );
}

/** Print, and the two CSV files (they come from the server: online only). */
function Actions({ eventId }: { eventId: string }) {
  const { t } = useTranslation();
  const online = useSyncState('online');
  const [busy, setBusy] = useState<string | null>(null);

  async function download(kind: 'tickets' | 'transport') {
    setBusy(kind);
    try {
      const file = await fetchEventCsv(eventId, kind);
      const url = URL.createObjectURL(file.blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = file.filename;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    } catch (error) {
      toastError(errorText(error, 'errors.generic') || t('account.print.downloadFailed'));
    } finally {
      setBusy(null);
    }
  }

  return (
    <div className="print-lists-actions no-print">
      <button type="button" className="button button-primary" onClick={() => window.print()}>
        {t('account.print.print')}
      </button>
      <button
        type="button"
        className="button button-secondary"
        disabled={!online || busy !== null}
        onClick={() => void download('tickets')}
      >
        {t('account.print.downloadTickets')}
      </button>
      <button
        type="button"
        className="button button-secondary"
        disabled={!online || busy !== null}
        onClick={() => void download('transport')}
      >
        {t('account.print.downloadTransport')}
      </button>
      {online ? null : <p className="offline-hint">{t('account.print.offline')}</p>}
    </div>
  );
}

/**
 * A cell with the name of its column before its value, shown only on a phone, where the header row
 * is hidden and a row's cells line up one after the other (print.css); empty without a value.
 */
function LabelledCell({ label, className, children }: { label: string; className?: string; children: ReactNode }) {
  return (
    <td className={className}>
      {children ? (
        <>
          <span className="print-label">{label}</span>
          {children}
        </>
      ) : null}
    </td>
  );
}

/** Name, member or guest, host: the first columns of both lists. */
function PersonCells({ person }: { person: DayListPerson }) {
  const { t } = useTranslation();
  return (
    <>
      <th scope="row">{person.name ?? t('account.print.unknown')}</th>
      <td>{person.guest ? t('account.print.guest') : t('account.print.member')}</td>
      <LabelledCell label={t('account.print.host')}>
        {person.guest ? (person.host ?? t('account.print.unknown')) : ''}
      </LabelledCell>
    </>
  );
}

function TicketTable({ rows }: { rows: TicketListRow[] }) {
  const { t } = useTranslation();
  const titleId = useId();
  const language = currentLanguage();
  const yesNo = (row: TicketListRow, value: boolean) =>
    row.state === 'bought' ? (value ? t('account.print.yes') : t('account.print.no')) : '';
  const price = (row: TicketListRow) =>
    row.price_open
      ? t('tickets.priceOpen')
      : row.is_free
        ? t('account.print.free')
        : row.price_cents === null
          ? ''
          : formatMoney(row.price_cents, language);
  return (
    <section className="card print-section" aria-labelledby={titleId}>
      <h2 id={titleId}>
        {t('account.print.ticketsTitle')} <span className="print-count">({rows.length})</span>
      </h2>
      {rows.length === 0 ? (
        <p className="muted">{t('account.print.ticketsEmpty')}</p>
      ) : (
        <div className="print-table-scroll">
          <table className="print-table" data-testid="print-tickets">
            <thead>
              <tr>
                <th scope="col">{t('account.print.name')}</th>
                <th scope="col">{t('account.print.kind')}</th>
                <th scope="col">{t('account.print.host')}</th>
                <th scope="col">{t('account.print.category')}</th>
                <th scope="col" className="num">
                  {t('account.print.price')}
                </th>
                <th scope="col">{t('account.print.paid')}</th>
                <th scope="col">{t('account.print.received')}</th>
                <th scope="col">{t('account.print.ticket')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.attendee_id} className={row.state === 'needed' ? 'print-needed' : undefined}>
                  <PersonCells person={row} />
                  <LabelledCell label={t('account.print.category')}>{row.category ?? ''}</LabelledCell>
                  <td className="num print-price">{price(row)}</td>
                  <LabelledCell label={t('account.print.paid')}>{yesNo(row, row.paid)}</LabelledCell>
                  <LabelledCell label={t('account.print.received')}>{yesNo(row, row.received)}</LabelledCell>
                  <td>{t(`account.print.${row.state}`)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function PassengerTable({ list }: { list: TransportList }) {
  const { t } = useTranslation();
  const titleId = useId();
  const language = currentLanguage();
  const departure = (date: string | null) => (date ? formatEventDate(date, language) : t('account.print.departureOpen'));
  return (
    <section className="card print-section" aria-labelledby={titleId}>
      <h2 id={titleId}>
        {t('account.print.transportTitle')} <span className="print-count">({list.passengers.length})</span>
      </h2>
      {list.only ? (
        <p>
          {t('account.print.onlyOption', { name: list.only.name })} {departure(list.only.departure_datetime)}
          {list.only.departure_location ? ` · ${list.only.departure_location}` : ''}
        </p>
      ) : list.options.length === 0 ? (
        <p className="muted">{t('account.print.noOptions')}</p>
      ) : (
        <>
          <p>{t('account.print.severalOptions')}</p>
          <ul className="print-options">
            {list.options.map((option) => (
              <li key={option.id}>
                <strong>{option.name}</strong> · {departure(option.departure_datetime)}
                {option.departure_location ? ` · ${option.departure_location}` : ''}
              </li>
            ))}
          </ul>
        </>
      )}
      {list.passengers.length === 0 ? (
        <p className="muted">{t('account.print.transportEmpty')}</p>
      ) : (
        <div className="print-table-scroll">
          <table className="print-table" data-testid="print-transport">
            <thead>
              <tr>
                <th scope="col">{t('boardings.printSeat')}</th>
                <th scope="col">{t('account.print.name')}</th>
                <th scope="col">{t('account.print.kind')}</th>
                <th scope="col">{t('account.print.host')}</th>
                <th scope="col">{t('account.print.answer')}</th>
                <th scope="col">{t('account.print.seat')}</th>
              </tr>
            </thead>
            <tbody>
              {list.passengers.map((row) => (
                <tr key={row.attendee_id}>
                  <LabelledCell label={t('boardings.printSeat')}>
                    {row.seat_number === null
                      ? '–'
                      : list.only
                        ? String(row.seat_number)
                        : `${row.option?.name ?? ''} ${row.seat_number}`}
                  </LabelledCell>
                  <PersonCells person={row} />
                  <td>{t(`account.print.${row.status}`)}</td>
                  <LabelledCell label={t('account.print.seat')}>{t(`account.print.${row.seat}`)}</LabelledCell>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
