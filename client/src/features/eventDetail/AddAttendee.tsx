import type { AttendanceStatus, AttendeeDoc, MemberDoc } from '@fankurve/shared';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { addAttendee } from '../../api/eventDetail.js';
import { FormError } from '../../ui/Field.js';
import { toastError, toastSuccess } from '../../ui/toast.js';
import { membersNotAttending } from './model.js';
import { failText } from './shared.js';

interface Props {
  eventId: string;
  attendees: readonly AttendeeDoc[];
  members: readonly MemberDoc[];
  online: boolean;
}

/** The admin adds a member who is not attending yet (SPEC 5: only those are offered; 'Please select a user'). */
export function AddAttendee({ eventId, attendees, members, online }: Props) {
  const { t } = useTranslation();
  const id = useId();
  const [userId, setUserId] = useState('');
  const [status, setStatus] = useState<AttendanceStatus>('going');
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const candidates = membersNotAttending(members, attendees);
  const selected = candidates.some((member) => member.id === userId) ? userId : '';

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!selected) {
      setError(t('eventDetail.validation.selectUser'));
      return;
    }
    setError(null);
    setSaving(true);
    try {
      await addAttendee(eventId, { user_id: selected, status });
      const name = candidates.find((member) => member.id === selected)?.username ?? '';
      setUserId('');
      toastSuccess(t('eventDetail.attendeeAdded', { name }));
    } catch (failure) {
      toastError(failText(failure, 'eventDetail.errors.addAttendeeFailed'));
    } finally {
      setSaving(false);
    }
  }

  return (
    <form className="add-attendee" onSubmit={(e) => void submit(e)} noValidate aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="subheading">
        {t('eventDetail.addAttendee')}
      </h3>
      <div className="field-row">
        <div className="field field-grow">
          <label htmlFor={`${id}-user`}>{t('eventDetail.member')}</label>
          <select id={`${id}-user`} value={selected} onChange={(e) => setUserId(e.target.value)}>
            <option value="">{candidates.length > 0 ? t('eventDetail.chooseMember') : t('eventDetail.everyoneAttends')}</option>
            {candidates.map((member) => (
              <option key={member.id} value={member.id}>
                {member.username}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-status`}>{t('eventDetail.status')}</label>
          <select id={`${id}-status`} value={status} onChange={(e) => setStatus(e.target.value as AttendanceStatus)}>
            <option value="going">{t('eventDetail.statusGoing')}</option>
            <option value="maybe">{t('eventDetail.statusMaybe')}</option>
          </select>
        </div>
        <button type="submit" className="button button-primary field-row-button" disabled={saving || !online}>
          {t('eventDetail.add')}
        </button>
      </div>
      <FormError message={error} />
    </form>
  );
}
