import {
  ANNOUNCEMENT_TEXT_MAX_LENGTH,
  ANNOUNCEMENT_TITLE_MAX_LENGTH,
} from '@fankurve/shared/collections/announcements/collection';
import { todayIn } from '@fankurve/shared/dates';
import { freeTextProblem } from '@fankurve/shared/rules/freeText';
import { useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { createAnnouncement, updateAnnouncement } from './api.js';
import { isApiError } from '../../api/client.js';
import { useEvents, useSyncState } from '../../data/index.js';
import type { AnnouncementView } from './data.js';
import { formatEventDate } from '../../i18n/eventDates.js';
import { currentLanguage, errorText, messageText } from '../../i18n/index.js';
import { useSiteConfig } from '../../session/siteConfig.js';
import { Modal } from '../../ui/Dialog.js';
import { Field } from '../../ui/Field.js';
import { toastError, toastSuccess } from '../../ui/toast.js';

/** The server's reason when it gave one (translated by its code), else the screen's own sentence. */
export function failureText(error: unknown, fallback: string): string {
  return isApiError(error) ? errorText(error) : fallback;
}

interface Props {
  /** The announcement to edit; null for a new one. */
  announcement: AnnouncementView | null;
  onClose: () => void;
}

type Errors = Partial<Record<'title' | 'text', string>>;

/**
 * The admin's form for an announcement: title, text (several lines), the event it is about (an
 * upcoming one, or the one it names), pinned. Online work through REST; the list follows through sync.
 */
export function AnnouncementForm({ announcement, onClose }: Props) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const online = useSyncState('online');
  const events = useEvents();
  const today = todayIn(useSiteConfig().time_zone);
  const [title, setTitle] = useState(announcement?.title ?? '');
  const [text, setText] = useState(announcement?.text ?? '');
  const [eventId, setEventId] = useState(announcement?.event_id ?? '');
  const [pinned, setPinned] = useState(announcement?.pinned ?? false);
  const [errors, setErrors] = useState<Errors>({});
  const [saving, setSaving] = useState(false);

  // Upcoming events by date, and the one the announcement names even when it is past.
  const choices = useMemo(
    () => (events ?? []).filter((event) => event.date.slice(0, 10) >= today || event.id === announcement?.event_id),
    [events, today, announcement?.event_id],
  );

  function check(): Errors {
    const found: Errors = {};
    const problem = (value: string, kind: 'line' | 'multiline') => {
      const code = freeTextProblem(value, kind);
      return code ? messageText(code) : undefined;
    };
    found.title = title.trim() ? problem(title, 'line') : t('announcements.titleRequired');
    found.text = text.trim() ? problem(text, 'multiline') : t('announcements.textRequired');
    return found;
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (saving || !online) return;
    const found = check();
    setErrors(found);
    if (found.title || found.text) return;
    const body = { title: title.trim(), text: text.trim(), event_id: eventId || null, pinned };
    setSaving(true);
    try {
      if (announcement) await updateAnnouncement(announcement.id, body);
      else await createAnnouncement(body);
      toastSuccess(t(announcement ? 'announcements.saved' : 'announcements.posted'));
      onClose();
    } catch (error) {
      toastError(failureText(error, t('announcements.saveFailed')));
      setSaving(false);
    }
  }

  return (
    <Modal title={t(announcement ? 'announcements.editTitle' : 'announcements.newTitle')} onClose={onClose} busy={saving}>
      <form className="form" noValidate onSubmit={(event) => void submit(event)}>
        <Field
          label={t('announcements.fieldTitle')}
          name="title"
          value={title}
          onChange={(event) => setTitle(event.target.value)}
          maxLength={ANNOUNCEMENT_TITLE_MAX_LENGTH}
          required
          hint={t('announcements.limitHint', { max: ANNOUNCEMENT_TITLE_MAX_LENGTH })}
          error={errors.title}
        />
        <Field
          label={t('announcements.fieldText')}
          hint={t('announcements.limitHint', { max: ANNOUNCEMENT_TEXT_MAX_LENGTH })}
          error={errors.text}
        >
          {(control) => (
            <textarea
              {...control}
              name="text"
              value={text}
              onChange={(event) => setText(event.target.value)}
              maxLength={ANNOUNCEMENT_TEXT_MAX_LENGTH}
              required
              rows={5}
            />
          )}
        </Field>
        <Field label={t('announcements.fieldEvent')} optional={t('announcements.optional')}>
          {(control) => (
            <select {...control} name="event" value={eventId} onChange={(event) => setEventId(event.target.value)}>
              <option value="">{t('announcements.noEvent')}</option>
              {choices.map((choice) => (
                <option key={choice.id} value={choice.id}>
                  {choice.title} · {formatEventDate(choice.date, language)}
                </option>
              ))}
            </select>
          )}
        </Field>
        <label className="check">
          <input type="checkbox" name="pinned" checked={pinned} onChange={(event) => setPinned(event.target.checked)} />
          {t('announcements.fieldPinned')}
        </label>
        {online ? null : <p className="offline-hint">{t('announcements.offline')}</p>}
        <div className="modal-actions">
          <button type="button" className="button button-secondary" onClick={onClose} disabled={saving}>
            {t('common.cancel')}
          </button>
          <button type="submit" className="button button-primary" disabled={saving || !online}>
            {saving ? t('announcements.saving') : t(announcement ? 'announcements.submitEdit' : 'announcements.submitNew')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
