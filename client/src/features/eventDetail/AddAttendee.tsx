import type { AttendanceStatus, AttendeeDoc, MemberDoc } from '@fankurve/shared';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { addAttendee } from '../../api/eventDetail.js';
import { errorText } from '../../i18n/index.js';
import { Field, FormError } from '../../ui/Field.js';
import { toastError, toastSuccess } from '../../ui/toast.js';
import { membersNotAttending } from './attendeeTable.js';

interface Props {
  eventId: string;
  attendees: readonly AttendeeDoc[];
  members: readonly MemberDoc[];
  online: boolean;
}

/** The admin adds a member who is not attending yet (docs/product.md, Input rules: only those are offered; 'Please select a user'). */
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
      toastError(errorText(failure, 'errors.addAttendeeFailed'));
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
        <Field label={t('eventDetail.member')} className="field-grow">
          {(control) => (
            <select {...control} value={selected} onChange={(e) => setUserId(e.target.value)}>
              <option value="">{candidates.length > 0 ? t('eventDetail.chooseMember') : t('eventDetail.everyoneAttends')}</option>
              {candidates.map((member) => (
                <option key={member.id} value={member.id}>
                  {member.username}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label={t('eventDetail.status')}>
          {(control) => (
            <select {...control} value={status} onChange={(e) => setStatus(e.target.value as AttendanceStatus)}>
              <option value="going">{t('eventDetail.statusGoing')}</option>
              <option value="maybe">{t('eventDetail.statusMaybe')}</option>
            </select>
          )}
        </Field>
        <button type="submit" className="button button-primary field-row-button" disabled={saving || !online}>
          {t('eventDetail.add')}
        </button>
      </div>
      <FormError message={error} />
    </form>
  );
}
