import { boardingCounts, boardingList, mayTick, type BoardingLine } from '@fankurve/shared/collections/boardings/rules';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { isApiError } from '../../api/client.js';
import { LocalRuleError, useAttendees, useEvent, useMembers, useSyncState, useTransports } from '../../data/index.js';
import { currentLanguage, errorText } from '../../i18n/index.js';
import { useUser } from '../../session/session.js';
import { Loading } from '../../ui/Loading.js';
import { toastError } from '../../ui/toast.js';
import { tickBoarding, useBoardings } from './data.js';
import { busRowsOf, namesOf, personOf } from './people.js';
import './boardings.css';

/**
 * /events/{id}/boarding/{transportId}: the boarding list of a transport option for its captains and
 * admins (docs/product.md, Bus), from the device, so it works without signal at the bus: the passengers
 * by seat with a big tick each, who is missing first (or only them), "32 von 50 an Bord", those who
 * cancelled late struck through. A tick is written on the device and sent when the connection returns.
 */
export function BoardingPage() {
  const { t } = useTranslation();
  const { id: eventId = '', transportId = '' } = useParams();
  const user = useUser();
  const isAdmin = user.scope === 'admin';
  const language = currentLanguage();
  const online = useSyncState('online');
  const event = useEvent(eventId);
  const attendees = useAttendees(eventId);
  const transports = useTransports(eventId);
  const members = useMembers();
  const boardings = useBoardings(transportId);
  const [missingOnly, setMissingOnly] = useState(false);
  const names = useMemo(() => namesOf(members ?? [], language, user), [members, language, user]);

  if (event === undefined || attendees === undefined || transports === undefined || boardings === undefined) return <Loading />;
  const transport = transports.find((option) => option.id === transportId);
  if (!event || !transport) {
    return (
      <section className="page boarding-page">
        <div className="card empty-card">
          <h1>{t('boardings.notFound')}</h1>
          <Link className="button button-primary" to={eventId ? `/events/${eventId}` : '/events'}>
            {t('boardings.back')}
          </Link>
        </div>
      </section>
    );
  }
  const allowed = mayTick(transport, { id: user.id, isAdmin });
  const lines = boardingList(transport, transports.length === 1, [...busRowsOf(attendees).values()], boardings);
  const counts = boardingCounts(lines);
  // Who is missing first (by seat), then those on board, then those who cancelled.
  const rank = (line: BoardingLine) => (line.cancelled ? 2 : line.on_board ? 1 : 0);
  const shown = [...lines]
    .filter((line) => !missingOnly || (!line.on_board && !line.cancelled))
    .sort((a, b) => rank(a) - rank(b));
  const unknown = t('boardings.unknown');

  async function toggle(line: BoardingLine) {
    try {
      await tickBoarding({ id: user.id, isAdmin }, transport!, line.attendee_id, !line.on_board);
    } catch (error) {
      toastError(isApiError(error) || error instanceof LocalRuleError ? errorText(error) : t('boardings.tickFailed'));
    }
  }

  return (
    <section className="page boarding-page" aria-labelledby="boarding-title">
      <div className="card boarding-head">
        <Link className="boarding-back" to={`/events/${eventId}`}>
          ← {event.title}
        </Link>
        <h1 id="boarding-title">{t('boardings.title', { name: transport.name })}</h1>
        <p className="boarding-count" role="status">
          {t('boardings.onBoardCount', { onBoard: counts.onBoard, total: counts.total })}
        </p>
        {!online ? <p className="boarding-offline">{t('boardings.offline')}</p> : null}
        {!allowed ? <p className="muted">{t('boardings.readOnly')}</p> : null}
        <label className="check">
          <input type="checkbox" checked={missingOnly} onChange={(e) => setMissingOnly(e.target.checked)} />
          {t('boardings.missingOnly')}
        </label>
      </div>
      {lines.length === 0 ? (
        <p className="card muted">{t('boardings.nobody')}</p>
      ) : (
        <ul className="boarding-list" aria-label={t('boardings.passengers')}>
          {shown.map((line) => {
            const person = personOf(line, names, unknown);
            const seat = line.seat === null ? t('boardings.noSeat') : String(line.seat);
            return (
              <li
                key={line.attendee_id}
                className={`boarding-line${line.on_board ? ' boarding-on' : ''}${line.cancelled ? ' boarding-cancelled' : ''}`}
              >
                <span className="boarding-seat" aria-label={t('boardings.seatShort', { seat })}>
                  {seat}
                </span>
                <span className="boarding-person">
                  {line.cancelled ? <s>{person.name}</s> : <span className="boarding-name">{person.name}</span>}
                  {person.host ? <small>{t('boardings.guestOfShort', { host: person.host })}</small> : null}
                  {line.cancelled ? <small>{t('boardings.cancelled')}</small> : null}
                </span>
                <button
                  type="button"
                  className="boarding-tick"
                  aria-pressed={line.on_board}
                  aria-label={t(line.on_board ? 'boardings.untick' : 'boardings.tick', { name: person.name })}
                  disabled={!allowed}
                  onClick={() => void toggle(line)}
                >
                  {line.on_board ? '✓' : ''}
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
