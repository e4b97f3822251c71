import type { EventReminder, Language } from '@fankurve/shared';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchEventReminders } from '../../api/events.js';
import { formatInstant } from '../../i18n/dates.js';

interface Props {
  eventId: string;
  online: boolean;
  language: Language;
}

type Loaded = { state: 'loading' } | { state: 'failed' } | { state: 'ready'; reminders: EventReminder[] };

/**
 * For admins on the event page: who was reminded to answer and when (docs/product.md, Answer
 * deadlines and reminders), read from the server (GET /api/events/{id}/reminders). Offline it says
 * the list needs a connection and loads by itself when the connection returns.
 */
export function Reminders({ eventId, online, language }: Props) {
  const { t } = useTranslation();
  const headingId = useId();
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });

  useEffect(() => {
    if (!online) return;
    const controller = new AbortController();
    setLoaded((before) => (before.state === 'ready' ? before : { state: 'loading' }));
    fetchEventReminders(eventId, controller.signal).then(
      (answer) => setLoaded({ state: 'ready', reminders: answer.reminders }),
      () => {
        if (!controller.signal.aborted) setLoaded({ state: 'failed' });
      },
    );
    return () => controller.abort();
  }, [eventId, online]);

  let body;
  if (!online) body = <p className="offline-hint">{t('deadlines.reminders.offline')}</p>;
  else if (loaded.state === 'loading') body = <p className="muted">{t('common.loading')}</p>;
  else if (loaded.state === 'failed') body = <p className="offline-hint">{t('deadlines.reminders.failed')}</p>;
  else if (loaded.reminders.length === 0) body = <p className="muted">{t('deadlines.reminders.none')}</p>;
  else {
    body = (
      <ul className="plain-list reminder-list">
        {loaded.reminders.map((reminder) => (
          <li key={`${reminder.user_id}|${reminder.kind}`} className="reminder-item">
            <span className="reminder-name">{reminder.username}</span>
            <span className="reminder-kind">
              {reminder.kind === 'event' ? t('deadlines.reminders.kindEvent') : t('deadlines.reminders.kindDeadline')}
            </span>
            <time className="reminder-time muted" dateTime={reminder.sent_at}>
              {formatInstant(reminder.sent_at, language)}
            </time>
          </li>
        ))}
      </ul>
    );
  }

  return (
    <section className="card detail-card detail-wide reminders" aria-labelledby={headingId}>
      <h2 id={headingId} className="card-title">
        {t('deadlines.reminders.heading')}
      </h2>
      <p className="muted">{t('deadlines.reminders.intro')}</p>
      {body}
    </section>
  );
}
