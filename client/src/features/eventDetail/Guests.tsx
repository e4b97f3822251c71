import { checkGuestName, type AttendanceStatus, type AttendeeDoc, type MemberDoc } from '@fankurve/shared';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { addGuestFor } from '../../api/eventDetail.js';
import { addGuest, removeGuest, updateGuest } from '../../data/index.js';
import { errorText, messageText } from '../../i18n/index.js';
import { ConfirmDialog } from '../../ui/Dialog.js';
import { Field, FormError } from '../../ui/Field.js';
import { toastError, toastSuccess } from '../../ui/toast.js';
import { pickableMembers } from './attendeeTable.js';
import { answerOverlay, useOverlay, type Access } from './shared.js';

interface Props {
  eventId: string;
  attendees: readonly AttendeeDoc[];
  members: readonly MemberDoc[];
  access: Access;
}

/**
 * Guests (docs/product.md, Attendance and guests: going, needs a ticket and a seat by default). A
 * member adds and changes the guests they bring on the device (offline too); an admin may also add a
 * guest for any member (online REST).
 */
export function Guests({ eventId, attendees, members, access }: Props) {
  const { t } = useTranslation();
  const id = useId();
  const [name, setName] = useState('');
  const [host, setHost] = useState(access.userId);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [removing, setRemoving] = useState<AttendeeDoc | null>(null);

  const ownGuests = attendees.filter((row) => row.user_id === null && row.brought_by === access.userId);
  const forOther = access.isAdmin && host !== access.userId;
  // A past event takes no new guests from members and no changes to theirs, nor does one after its
  // answer deadline; an admin keeps correcting.
  const closed = (access.answersClosed || access.deadlinePassed) && !access.isAdmin;

  async function submit(event: FormEvent) {
    event.preventDefault();
    const checked = checkGuestName(name);
    if (!checked.ok) {
      setError(messageText(checked.code));
      return;
    }
    const guestName = checked.value;
    setError(null);
    setSaving(true);
    try {
      if (forOther) await addGuestFor({ event_id: eventId, guest_name: guestName, brought_by: host });
      else await addGuest(eventId, access.userId, guestName);
      setName('');
      toastSuccess(t('eventDetail.guestAdded', { name: guestName }));
    } catch (failure) {
      toastError(errorText(failure, 'errors.addGuestFailed'));
    } finally {
      setSaving(false);
    }
  }

  async function remove() {
    if (!removing) return;
    try {
      await removeGuest(removing.id);
    } catch (failure) {
      toastError(errorText(failure, 'errors.removeAttendanceFailed'));
    } finally {
      setRemoving(null);
    }
  }

  return (
    <section className="card detail-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="card-title">
        {t('eventDetail.guests')}
      </h2>
      {closed ? (
        <p className="answers-closed">{access.answersClosed ? t('eventDetail.guestsClosed') : t('deadlines.closedGuests')}</p>
      ) : null}
      <form className="form guest-form" onSubmit={(e) => void submit(e)} noValidate>
        <Field
          label={t('eventDetail.guestName')}
          value={name}
          maxLength={100}
          autoComplete="off"
          disabled={closed}
          onChange={(e) => setName(e.target.value)}
        />
        {access.isAdmin ? (
          <Field label={t('eventDetail.broughtBy')}>
            {(control) => (
              <select {...control} value={host} onChange={(e) => setHost(e.target.value)}>
                <option value={access.userId}>{t('eventDetail.me')}</option>
                {pickableMembers(members)
                  .filter((member) => member.id !== access.userId)
                  .map((member) => (
                    <option key={member.id} value={member.id}>
                      {member.username}
                    </option>
                  ))}
              </select>
            )}
          </Field>
        ) : null}
        <FormError message={error} />
        {forOther && !access.online ? <p className="offline-hint">{t('eventDetail.offlineHint')}</p> : null}
        <button type="submit" className="button button-primary" disabled={saving || closed || (forOther && !access.online)}>
          {t('eventDetail.addGuest')}
        </button>
      </form>
      {ownGuests.length > 0 ? (
        <>
          <h3 className="subheading">{t('eventDetail.yourGuests')}</h3>
          <ul className="plain-list stack">
            {ownGuests.map((guest) => (
              <GuestItem key={guest.id} guest={guest} closed={closed} onRemove={() => setRemoving(guest)} />
            ))}
          </ul>
        </>
      ) : null}
      {removing ? (
        <ConfirmDialog
          title={t('eventDetail.removeGuestTitle')}
          message={t('eventDetail.removeGuestText', { name: removing.guest_name ?? '' })}
          confirmLabel={t('eventDetail.remove')}
          onConfirm={() => void remove()}
          onCancel={() => setRemoving(null)}
        />
      ) : null}
    </section>
  );
}

type GuestChange = Parameters<typeof updateGuest>[1];

/** One of the member's own guests: status, ticket and seat (written on the device), remove. */
function GuestItem({ guest: stored, closed, onRemove }: { guest: AttendeeDoc; closed: boolean; onRemove: () => void }) {
  const { t } = useTranslation();
  const [shown, beginChange, endChange] = useOverlay(stored);
  const guest = shown ?? stored;

  async function change(patch: GuestChange) {
    beginChange(answerOverlay(guest, patch));
    try {
      await updateGuest(guest.id, patch);
      endChange(false);
    } catch (failure) {
      endChange(true);
      toastError(errorText(failure, 'errors.updateAttendanceFailed'));
    }
  }

  return (
    <li className="guest-item">
      <div className="guest-head">
        <span className="guest-name">{guest.guest_name}</span>
        <button
          type="button"
          className="button button-small button-danger-ghost"
          disabled={guest.bought || closed}
          title={guest.bought ? t('eventDetail.guestTicketBought') : undefined}
          onClick={onRemove}
        >
          {t('eventDetail.remove')}
          <span className="sr-only"> {guest.guest_name}</span>
        </button>
      </div>
      <div className="guest-flags">
        <select
          aria-label={t('eventDetail.guestStatusOf', { name: guest.guest_name })}
          value={guest.status}
          disabled={closed}
          onChange={(e) => void change({ status: e.target.value as AttendanceStatus })}
        >
          <option value="going">{t('eventDetail.statusGoing')}</option>
          <option value="maybe">{t('eventDetail.statusMaybe')}</option>
        </select>
        <label className="check">
          <input
            type="checkbox"
            checked={guest.needs_ticket}
            disabled={closed}
            onChange={(e) => void change({ needs_ticket: e.target.checked })}
          />
          {t('eventDetail.guestNeedsTicket')}
        </label>
        <label className="check">
          <input
            type="checkbox"
            checked={guest.needs_transport}
            disabled={closed}
            onChange={(e) => void change({ needs_transport: e.target.checked })}
          />
          {t('eventDetail.guestNeedsSeat')}
        </label>
      </div>
    </li>
  );
}
