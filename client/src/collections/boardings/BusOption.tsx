import type { AttendeeDoc, TransportDoc } from '@fankurve/shared';
import { formatMoney } from '@fankurve/shared/rules/money';
import {
  isSeatFree,
  isTravelling,
  mayChooseSeatFor,
  mayTick,
  seatOf,
  seatRows,
  type BusRow,
} from '@fankurve/shared/collections/boardings/rules';
import { useId, useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useMembers } from '../../data/index.js';
import { currentLanguage, errorText } from '../../i18n/index.js';
import { useUser } from '../../session/session.js';
import { ConfirmDialog, Modal } from '../../ui/Dialog.js';
import { toastError, toastSuccess } from '../../ui/toast.js';
import { assignSeat, chargeFare, saveCaptains, saveSeatPlan } from './api.js';
import { busRowsOf, namesOf, personOf } from './people.js';
import './boardings.css';

interface Props {
  eventId: string;
  transport: TransportDoc;
  attendees: readonly AttendeeDoc[];
  online: boolean;
}

/**
 * The bus part of a transport option (docs/product.md, Bus), on the event page: its seat plan with who
 * sits where (like the attendee table, every member sees it), the member's own seats, the captains and
 * the boarding list's link for them and admins; admins set the plan and the captains, give seats and
 * charge the fare (online); members take their seats themselves where the admin lets them.
 */
export function BusOption({ eventId, transport, attendees, online }: Props) {
  const { t } = useTranslation();
  const user = useUser();
  const isAdmin = user.scope === 'admin';
  const language = currentLanguage();
  const members = useMembers();
  const names = useMemo(() => namesOf(members ?? [], language, user), [members, language, user]);
  const rows = useMemo(() => busRowsOf(attendees), [attendees]);
  const [picking, setPicking] = useState<number | null>(null);
  const [managing, setManaging] = useState(false);
  const unknown = t('boardings.unknown');
  const ownRows = [...rows.values()].filter(
    (row) => isTravelling(row) && mayChooseSeatFor({ seat_choice: 'members' }, user.id, row),
  );
  const taken = transport.seats.filter((held) => isTravelling(rows.get(held.attendee_id))).length;
  const captains = transport.captain_ids.map((id) => names.get(id) ?? unknown);
  const ticks = mayTick(transport, { id: user.id, isAdmin });
  const mayPick = (seat: number) => {
    if (!online || picking !== null) return false;
    if (isAdmin) return true;
    if (transport.seat_choice !== 'members' || ownRows.length === 0) return false;
    const holder = transport.seats.find((held) => held.seat === seat);
    return isSeatFree(transport, seat, rows) || (holder !== undefined && ownRows.some((row) => row.id === holder.attendee_id));
  };

  return (
    <div className="bus">
      <p className="bus-plan">
        {transport.seat_count === null
          ? t('boardings.noPlan')
          : transport.seat_rows !== null
            ? t('boardings.planRows', {
                rows: transport.seat_rows,
                perRow: transport.seats_per_row,
                taken,
                count: transport.seat_count,
              })
            : t('boardings.planSeats', { taken, count: transport.seat_count })}
        {transport.seat_count !== null ? (
          <span className="muted">
            {' · '}
            {t(transport.seat_choice === 'members' ? 'boardings.choiceMembers' : 'boardings.choiceAdmin')}
          </span>
        ) : null}
      </p>
      <p className="bus-captains">
        {t('boardings.captains')}: {captains.length > 0 ? captains.join(', ') : t('boardings.noCaptains')}
      </p>
      {ownRows.map((row) => {
        const seat = seatOf(transport, row.id);
        return seat === null ? null : (
          <p key={row.id} className="bus-own-seat">
            {row.user_id === user.id
              ? t('boardings.yourSeat', { seat })
              : t('boardings.guestSeat', { name: row.guest_name ?? unknown, seat })}
          </p>
        );
      })}
      {transport.seat_count !== null ? (
        <details className="bus-map-box" open={isAdmin || transport.seat_choice === 'members'}>
          <summary>{t('boardings.showPlan')}</summary>
          <SeatMap transport={transport} rows={rows} names={names} unknown={unknown} mayPick={mayPick} onPick={setPicking} />
          {transport.seat_choice === 'members' && !isAdmin && ownRows.length > 0 && !online ? (
            <small className="offline-hint">{t('boardings.chooseOffline')}</small>
          ) : null}
        </details>
      ) : null}
      <div className="detail-actions">
        {ticks ? (
          <Link className="button button-small" to={`/events/${eventId}/boarding/${transport.id}`}>
            {t('boardings.boardingList')}
          </Link>
        ) : null}
        {isAdmin ? (
          <button type="button" className="button button-small button-ghost" disabled={!online} onClick={() => setManaging(true)}>
            {t('boardings.manage')}
            <span className="sr-only"> {transport.name}</span>
          </button>
        ) : null}
      </div>
      {picking !== null ? (
        <SeatDialog
          transport={transport}
          seat={picking}
          rows={rows}
          names={names}
          unknown={unknown}
          choices={isAdmin ? [...rows.values()].filter(isTravelling) : ownRows}
          onClose={() => setPicking(null)}
        />
      ) : null}
      {managing ? <ManageBus transport={transport} names={names} language={language} onClose={() => setManaging(false)} /> : null}
    </div>
  );
}

interface SeatMapProps {
  transport: TransportDoc;
  rows: ReadonlyMap<string, BusRow>;
  names: ReadonlyMap<string, string>;
  unknown: string;
  mayPick: (seat: number) => boolean;
  onPick: (seat: number) => void;
}

/** The seats by row with the aisle in the middle; a seat shows who holds it (struck through: cancelled since). */
function SeatMap({ transport, rows, names, unknown, mayPick, onPick }: SeatMapProps) {
  const { t } = useTranslation();
  const seat = (number: number) => {
    const holder = transport.seats.find((held) => held.seat === number);
    const person = holder ? personOf(holder, names, unknown) : null;
    const cancelled = holder !== undefined && !isTravelling(rows.get(holder.attendee_id));
    const label = person
      ? t(cancelled ? 'boardings.seatCancelled' : 'boardings.seatHeld', { seat: number, name: person.name })
      : t('boardings.seatFree', { seat: number });
    return (
      <button
        key={number}
        type="button"
        className={`bus-seat${holder ? ' bus-seat-held' : ''}${cancelled ? ' bus-seat-cancelled' : ''}`}
        aria-label={label}
        title={label}
        disabled={!mayPick(number)}
        onClick={() => onPick(number)}
      >
        <span className="bus-seat-number">{number}</span>
        <span className="bus-seat-name">{person ? person.name : t('boardings.free')}</span>
      </button>
    );
  };
  return (
    <div className="bus-map" role="group" aria-label={t('boardings.seatPlan')}>
      {seatRows(transport).map((row, index) => (
        <div key={index} className="bus-row">
          <div className="bus-side">{row.left.map(seat)}</div>
          <div className="bus-aisle" aria-hidden="true" />
          <div className="bus-side">{row.right.map(seat)}</div>
        </div>
      ))}
    </div>
  );
}

interface SeatDialogProps {
  transport: TransportDoc;
  seat: number;
  rows: ReadonlyMap<string, BusRow>;
  names: ReadonlyMap<string, string>;
  unknown: string;
  /** Whom the user may seat here: every passenger for an admin, the own row and guests for a member. */
  choices: BusRow[];
  onClose: () => void;
}

/** Gives the seat to one of `choices` or frees it (online). */
function SeatDialog({ transport, seat, rows, names, unknown, choices, onClose }: SeatDialogProps) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const holder = transport.seats.find((held) => held.seat === seat);
  const ownHolder = holder !== undefined && choices.some((row) => row.id === holder.attendee_id);
  const free = isSeatFree(transport, seat, rows);

  async function give(attendeeId: string | null) {
    setBusy(true);
    try {
      await assignSeat(transport.id, seat, attendeeId);
      toastSuccess(t('boardings.seatSaved'));
      onClose();
    } catch (error) {
      toastError(errorText(error));
      setBusy(false);
    }
  }

  return (
    <Modal title={t('boardings.seatTitle', { seat })} onClose={onClose} size="small" busy={busy}>
      {holder ? <p>{t('boardings.heldBy', { name: personOf(holder, names, unknown).name })}</p> : null}
      {free ? (
        <ul className="bus-choices">
          {choices.map((row) => {
            const person = personOf(row, names, unknown);
            return (
              <li key={row.id}>
                <button type="button" className="button button-small" disabled={busy} onClick={() => void give(row.id)}>
                  {person.host ? t('boardings.guestOf', { name: person.name, host: person.host }) : person.name}
                  {seatOf(transport, row.id) !== null
                    ? ` (${t('boardings.seatShort', { seat: seatOf(transport, row.id) })})`
                    : ''}
                </button>
              </li>
            );
          })}
        </ul>
      ) : null}
      {holder && (ownHolder || choices.length > 0) ? (
        <button type="button" className="button button-small button-danger-ghost" disabled={busy} onClick={() => void give(null)}>
          {t('boardings.freeSeat')}
        </button>
      ) : null}
    </Modal>
  );
}

interface ManageProps {
  transport: TransportDoc;
  names: ReadonlyMap<string, string>;
  language: 'de' | 'en';
  onClose: () => void;
}

/** The admin's bus settings of an option: the seat plan, the captains and the fare (online). */
function ManageBus({ transport, names, language, onClose }: ManageProps) {
  const { t } = useTranslation();
  const id = useId();
  const [kind, setKind] = useState<'none' | 'seats' | 'rows'>(
    transport.seat_count === null ? 'none' : transport.seat_rows !== null ? 'rows' : 'seats',
  );
  const [seats, setSeats] = useState(String(transport.seat_count ?? 50));
  const [planRows, setPlanRows] = useState(String(transport.seat_rows ?? 12));
  const [perRow, setPerRow] = useState(String(transport.seats_per_row ?? 4));
  const [captains, setCaptains] = useState<string[]>(transport.captain_ids);
  const [busy, setBusy] = useState(false);
  const [charging, setCharging] = useState(false);
  const people = [...names.entries()].sort((a, b) => a[1].localeCompare(b[1], 'de', { sensitivity: 'base' }));
  const priced = !transport.is_free && !transport.is_price_tbd && transport.price_per_seat_cents > 0;

  async function savePlan(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    try {
      await saveSeatPlan(
        transport.id,
        kind === 'none'
          ? { seats: null }
          : kind === 'seats'
            ? { seats: Number(seats) }
            : { rows: Number(planRows), seats_per_row: Number(perRow) },
      );
      await saveCaptains(transport.id, captains);
      toastSuccess(t('boardings.saved'));
      onClose();
    } catch (error) {
      toastError(errorText(error));
      setBusy(false);
    }
  }

  async function charge() {
    setBusy(true);
    try {
      const answer = await chargeFare(transport.id);
      toastSuccess(
        t('boardings.charged', { count: answer.charged, total: formatMoney(Math.round(answer.total * 100), language) }),
      );
      setCharging(false);
      onClose();
    } catch (error) {
      toastError(errorText(error));
      setCharging(false);
      setBusy(false);
    }
  }

  return (
    <Modal title={t('boardings.manageTitle', { name: transport.name })} onClose={onClose} busy={busy}>
      <form className="form bus-form" onSubmit={(e) => void savePlan(e)} noValidate>
        <fieldset>
          <legend>{t('boardings.seatPlan')}</legend>
          <label className="check">
            <input type="radio" name={`${id}-kind`} checked={kind === 'none'} onChange={() => setKind('none')} />
            {t('boardings.planNone')}
          </label>
          <label className="check">
            <input type="radio" name={`${id}-kind`} checked={kind === 'seats'} onChange={() => setKind('seats')} />
            {t('boardings.planBySeats')}
          </label>
          {kind === 'seats' ? (
            <label className="field">
              <span>{t('boardings.fieldSeats')}</span>
              <input type="number" min={1} max={100} value={seats} onChange={(e) => setSeats(e.target.value)} />
            </label>
          ) : null}
          <label className="check">
            <input type="radio" name={`${id}-kind`} checked={kind === 'rows'} onChange={() => setKind('rows')} />
            {t('boardings.planByRows')}
          </label>
          {kind === 'rows' ? (
            <div className="bus-form-rows">
              <label className="field">
                <span>{t('boardings.fieldRows')}</span>
                <input type="number" min={1} max={30} value={planRows} onChange={(e) => setPlanRows(e.target.value)} />
              </label>
              <label className="field">
                <span>{t('boardings.fieldPerRow')}</span>
                <input type="number" min={1} max={6} value={perRow} onChange={(e) => setPerRow(e.target.value)} />
              </label>
            </div>
          ) : null}
        </fieldset>
        <fieldset>
          <legend>{t('boardings.captains')}</legend>
          <div className="bus-captain-list">
            {people.map(([userId, name]) => (
              <label key={userId} className="check">
                <input
                  type="checkbox"
                  checked={captains.includes(userId)}
                  onChange={(e) =>
                    setCaptains((current) => (e.target.checked ? [...current, userId] : current.filter((c) => c !== userId)))
                  }
                />
                {name}
              </label>
            ))}
          </div>
        </fieldset>
        <div className="detail-actions">
          <button type="submit" className="button button-primary" disabled={busy}>
            {t('boardings.save')}
          </button>
          <button
            type="button"
            className="button button-ghost"
            disabled={busy || !priced}
            title={priced ? undefined : t('serverMessages.fareNotSet')}
            onClick={() => setCharging(true)}
          >
            {t('boardings.chargeFare', { amount: formatMoney(transport.price_per_seat_cents, language) })}
          </button>
        </div>
      </form>
      {charging ? (
        <ConfirmDialog
          title={t('boardings.chargeTitle')}
          message={t('boardings.chargeText', { amount: formatMoney(transport.price_per_seat_cents, language) })}
          confirmLabel={t('boardings.chargeConfirm')}
          busy={busy}
          onConfirm={() => void charge()}
          onCancel={() => setCharging(false)}
        />
      ) : null}
    </Modal>
  );
}
