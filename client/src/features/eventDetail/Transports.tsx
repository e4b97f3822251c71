import type { AttendeeDoc, Language, TransportDoc } from '@fankurve/shared';
import { formatMoney } from '@fankurve/shared/rules/money';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { createTransport, deleteTransport, updateTransport } from '../../api/eventDetail.js';
import { errorText } from '../../i18n/index.js';
import { ConfirmDialog } from '../../ui/Dialog.js';
import { Field, FormError } from '../../ui/Field.js';
import { toastError, toastSuccess } from '../../ui/toast.js';
import { formatEventDate, isoWallClock } from '../../i18n/eventDates.js';
import { MoneyField } from '../../ui/MoneyField.js';
import { transportSummary } from './attendeeTable.js';
import { EMPTY_TRANSPORT_FORM, transportFormOf, transportInputOf, type TransportForm } from './transportForm.js';
import { SaveCancel } from './SaveCancel.js';
import { BusOption } from '../../collections/boardings/index.js';
import type { Access } from './shared.js';

interface Props {
  eventId: string;
  attendees: readonly AttendeeDoc[];
  transports: readonly TransportDoc[] | undefined;
  access: Access;
  language: Language;
}

/** Seats needed, reserved and waiting (from the attendee rows), and the transport options; admins manage them. */
export function Transports({ eventId, attendees, transports, access, language }: Props) {
  const { t } = useTranslation();
  const id = useId();
  const summary = transportSummary(attendees);
  const [editing, setEditing] = useState<string | 'new' | null>(null);
  const [removing, setRemoving] = useState<TransportDoc | null>(null);
  const [busy, setBusy] = useState(false);

  async function remove() {
    if (!removing) return;
    setBusy(true);
    try {
      await deleteTransport(removing.id);
      setRemoving(null);
    } catch (error) {
      toastError(errorText(error, 'errors.deleteTransportFailed'));
    } finally {
      setBusy(false);
    }
  }

  const price = (transport: TransportDoc) =>
    transport.is_free
      ? t('eventDetail.ticketFree')
      : transport.is_price_tbd
        ? t('eventDetail.priceTba')
        : formatMoney(transport.price_per_seat_cents, language);

  return (
    <section className="card detail-card detail-wide" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="card-title">
        {t('eventDetail.transports')}
      </h2>
      <dl className="transport-summary" aria-label={t('eventDetail.seatSummary')}>
        <div>
          <dt>{t('eventDetail.seatsNeeded')}</dt>
          <dd>{summary.needed}</dd>
        </div>
        <div className="summary-reserved">
          <dt>{t('eventDetail.seatsReserved')}</dt>
          <dd>{summary.reserved}</dd>
        </div>
        <div className="summary-waiting">
          <dt>{t('eventDetail.seatsWaiting')}</dt>
          <dd>{summary.waiting}</dd>
        </div>
      </dl>
      {transports === undefined ? (
        <p className="muted">{t('common.loading')}</p>
      ) : transports.length === 0 ? (
        <p className="muted">{t('eventDetail.noTransports')}</p>
      ) : (
        <ul className="card-list">
          {transports.map((transport) =>
            editing === transport.id ? (
              <li key={transport.id} className="transport-item">
                <TransportEditor eventId={eventId} transport={transport} online={access.online} onDone={() => setEditing(null)} />
              </li>
            ) : (
              <li key={transport.id} className="transport-item" aria-label={transport.name}>
                <div className="transport-head">
                  <h3 className="transport-name">{transport.name}</h3>
                  <span className="transport-price">{price(transport)}</span>
                </div>
                <dl className="facts">
                  <div>
                    <dt>{t('eventDetail.departureLocation')}</dt>
                    <dd>{transport.departure_location}</dd>
                  </div>
                  <div>
                    <dt>{t('eventDetail.departureTime')}</dt>
                    <dd>
                      {transport.departure_datetime ? (
                        <time dateTime={isoWallClock(transport.departure_datetime)}>
                          {formatEventDate(transport.departure_datetime, language)}
                        </time>
                      ) : (
                        t('eventDetail.toBeAnnounced')
                      )}
                    </dd>
                  </div>
                </dl>
                <BusOption eventId={eventId} transport={transport} attendees={attendees} online={access.online} />
                {access.isAdmin ? (
                  <div className="detail-actions">
                    <button
                      type="button"
                      className="button button-small button-ghost"
                      disabled={!access.online}
                      onClick={() => setEditing(transport.id)}
                    >
                      {t('eventDetail.edit')}
                      <span className="sr-only"> {transport.name}</span>
                    </button>
                    <button
                      type="button"
                      className="button button-small button-danger-ghost"
                      disabled={!access.online}
                      onClick={() => setRemoving(transport)}
                    >
                      {t('eventDetail.delete')}
                      <span className="sr-only"> {transport.name}</span>
                    </button>
                  </div>
                ) : null}
              </li>
            ),
          )}
        </ul>
      )}
      {access.isAdmin ? (
        editing === 'new' ? (
          <div className="transport-item">
            <TransportEditor eventId={eventId} transport={null} online={access.online} onDone={() => setEditing(null)} />
          </div>
        ) : (
          <>
            <button type="button" className="button button-ghost" disabled={!access.online} onClick={() => setEditing('new')}>
              {t('eventDetail.addTransport')}
            </button>
            {!access.online ? <p className="offline-hint">{t('eventDetail.offlineHint')}</p> : null}
          </>
        )
      ) : null}
      {removing ? (
        <ConfirmDialog
          title={t('eventDetail.deleteTransportTitle')}
          message={t('eventDetail.deleteTransportText', { name: removing.name })}
          confirmLabel={t('eventDetail.delete')}
          busy={busy}
          onConfirm={() => void remove()}
          onCancel={() => setRemoving(null)}
        />
      ) : null}
    </section>
  );
}

interface EditorProps {
  eventId: string;
  transport: TransportDoc | null;
  online: boolean;
  onDone: () => void;
}

/** Add or edit a transport option (admin): name and place required; price a number, free or TBD (exclusive). */
function TransportEditor({ eventId, transport, online, onDone }: EditorProps) {
  const { t } = useTranslation();
  const id = useId();
  const [form, setForm] = useState<TransportForm>(() => (transport ? transportFormOf(transport) : EMPTY_TRANSPORT_FORM));
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const set = <K extends keyof TransportForm>(key: K, value: TransportForm[K]) =>
    setForm((current) => ({ ...current, [key]: value }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    const result = transportInputOf(eventId, form);
    if (!result.ok) {
      setError(t(`eventDetail.validation.${result.error}`));
      return;
    }
    setError(null);
    setSaving(true);
    try {
      if (transport) await updateTransport(transport.id, result.body);
      else await createTransport(result.body);
      toastSuccess(t('eventDetail.transportSaved'));
      onDone();
    } catch (failure) {
      toastError(errorText(failure, 'errors.saveTransportFailed'));
      setSaving(false);
    }
  }

  return (
    <form className="form transport-form" onSubmit={(e) => void submit(e)} noValidate aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="subheading">
        {transport ? t('eventDetail.editTransport') : t('eventDetail.newTransport')}
      </h3>
      <Field label={t('eventDetail.transportName')} value={form.name} onChange={(e) => set('name', e.target.value)} />
      <Field
        label={t('eventDetail.departureLocation')}
        value={form.departure_location}
        onChange={(e) => set('departure_location', e.target.value)}
      />
      <Field
        label={t('eventDetail.departureTime')}
        type="datetime-local"
        // Any minute: the departure is kept as entered, never moved to a quarter hour.
        step={60}
        value={form.departure}
        hint={t('eventDetail.departureHint')}
        onChange={(e) => set('departure', e.target.value)}
      />
      <MoneyField
        label={t('eventDetail.pricePerSeat')}
        value={form.is_free || form.is_price_tbd ? '' : form.price}
        disabled={form.is_free || form.is_price_tbd}
        onValueChange={(value) => set('price', value)}
      >
        <div className="check-row">
          <label className="check">
            <input
              type="checkbox"
              checked={form.is_free}
              onChange={(e) =>
                setForm((current) => ({
                  ...current,
                  is_free: e.target.checked,
                  is_price_tbd: e.target.checked ? false : current.is_price_tbd,
                }))
              }
            />
            {t('eventDetail.ticketFree')}
          </label>
          <label className="check">
            <input
              type="checkbox"
              checked={form.is_price_tbd}
              onChange={(e) =>
                setForm((current) => ({
                  ...current,
                  is_price_tbd: e.target.checked,
                  is_free: e.target.checked ? false : current.is_free,
                }))
              }
            />
            {t('eventDetail.ticketTbd')}
          </label>
        </div>
      </MoneyField>
      <label className="check">
        <input type="checkbox" checked={form.members_choose} onChange={(e) => set('members_choose', e.target.checked)} />
        {t('boardings.membersChoose')}
      </label>
      <label className="check">
        <input
          type="checkbox"
          checked={form.charge_at_departure}
          onChange={(e) => set('charge_at_departure', e.target.checked)}
        />
        {t('boardings.chargeAtDeparture')}
      </label>
      <FormError message={error} />
      <div className="detail-actions">
        <SaveCancel saving={saving} online={online} onCancel={onDone} />
      </div>
    </form>
  );
}
