import type { EventReminder, Language, RemindNowAnswer, UnansweredMember } from '@fankurve/shared';
import { useCallback, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchEventReminders } from '../../api/events.js';
import { fetchUnanswered, remindNow } from '../../api/reminders.js';
import { errorText } from '../../i18n/index.js';
import { formatInstant } from '../../i18n/dates.js';
import { toastError } from '../../ui/toast.js';

interface Props {
  eventId: string;
  online: boolean;
  language: Language;
}

type Loaded =
  { state: 'loading' } | { state: 'failed' } | { state: 'ready'; reminders: EventReminder[]; unanswered: UnansweredMember[] };

/**
 * For admins on the event page (docs/product.md, Answer deadlines and reminders): who has not
 * answered yet, with "remind now" for all of them or one (each member once an hour: the server
 * decides and says who was skipped; push where a device is subscribed, else e-mail), and who was
 * reminded and when. Read from the server (GET /api/events/{id}/unanswered and …/reminders); offline
 * it says the lists need a connection and loads by itself when the connection returns.
 */
export function Reminders({ eventId, online, language }: Props) {
  const { t } = useTranslation();
  const headingId = useId();
  const unansweredId = useId();
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  const [reload, setReload] = useState(0);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<string | null>(null);

  useEffect(() => {
    if (!online) return;
    const controller = new AbortController();
    setLoaded((before) => (before.state === 'ready' ? before : { state: 'loading' }));
    Promise.all([fetchEventReminders(eventId, controller.signal), fetchUnanswered(eventId, controller.signal)]).then(
      ([sent, open]) => setLoaded({ state: 'ready', reminders: sent.reminders, unanswered: open.members }),
      () => {
        if (!controller.signal.aborted) setLoaded({ state: 'failed' });
      },
    );
    return () => controller.abort();
  }, [eventId, online, reload]);

  const outcomeText = useCallback(
    (answer: RemindNowAnswer): string => {
      const byMail = answer.reminded.filter((member) => member.channel === 'mail').length;
      const parts = [t('deadlines.remindNow.reminded', { count: answer.reminded.length })];
      if (byMail > 0) parts.push(t('deadlines.remindNow.byMail', { count: byMail }));
      for (const reason of ['recentlyReminded', 'unreachable', 'answered'] as const) {
        const skipped = answer.skipped.filter((member) => member.reason === reason);
        if (skipped.length > 0) {
          parts.push(t(`deadlines.remindNow.skipped.${reason}`, { names: skipped.map((member) => member.username).join(', ') }));
        }
      }
      return parts.join(' · ');
    },
    [t],
  );

  const remind = async (userIds?: string[]) => {
    setBusy(true);
    try {
      setOutcome(outcomeText(await remindNow(eventId, userIds)));
      setReload((n) => n + 1);
    } catch (error) {
      toastError(errorText(error));
    } finally {
      setBusy(false);
    }
  };

  let unanswered;
  let sent;
  if (!online) sent = <p className="offline-hint">{t('deadlines.reminders.offline')}</p>;
  else if (loaded.state === 'loading') sent = <p className="muted">{t('common.loading')}</p>;
  else if (loaded.state === 'failed') sent = <p className="offline-hint">{t('deadlines.reminders.failed')}</p>;
  else {
    const waiting = loaded.unanswered;
    const canRemind = waiting.filter((member) => member.remind_again_at === null);
    unanswered = (
      <div className="unanswered" aria-labelledby={unansweredId} role="group">
        <h3 id={unansweredId} className="card-subtitle">
          {t('deadlines.remindNow.heading', { count: waiting.length })}
        </h3>
        {waiting.length === 0 ? (
          <p className="muted">{t('deadlines.remindNow.everyone')}</p>
        ) : (
          <>
            <ul className="plain-list reminder-list unanswered-list">
              {waiting.map((member) => (
                <li key={member.user_id} className="reminder-item">
                  <span className="reminder-name">{member.username}</span>
                  {member.remind_again_at === null ? (
                    <button
                      type="button"
                      className="button button-small"
                      disabled={busy}
                      aria-label={t('deadlines.remindNow.oneLabel', { name: member.username })}
                      onClick={() => void remind([member.user_id])}
                    >
                      {t('deadlines.remindNow.one')}
                    </button>
                  ) : (
                    <span className="muted reminder-time">
                      {t('deadlines.remindNow.again', { time: formatInstant(member.remind_again_at, language) })}
                    </span>
                  )}
                </li>
              ))}
            </ul>
            <button type="button" className="button" disabled={busy || canRemind.length === 0} onClick={() => void remind()}>
              {t('deadlines.remindNow.all', { count: canRemind.length })}
            </button>
          </>
        )}
        <p role="status" className="muted remind-outcome">
          {outcome}
        </p>
      </div>
    );
    sent =
      loaded.reminders.length === 0 ? (
        <p className="muted">{t('deadlines.reminders.none')}</p>
      ) : (
        <ul className="plain-list reminder-list">
          {loaded.reminders.map((reminder) => (
            <li key={`${reminder.user_id}|${reminder.kind}`} className="reminder-item">
              <span className="reminder-name">{reminder.username}</span>
              <span className="reminder-kind">{t(KIND_TEXT[reminder.kind])}</span>
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
      {unanswered}
      <p className="muted">{t('deadlines.reminders.intro')}</p>
      {sent}
    </section>
  );
}

const KIND_TEXT = {
  event: 'deadlines.reminders.kindEvent',
  deadline: 'deadlines.reminders.kindDeadline',
  manual: 'deadlines.reminders.kindManual',
} as const satisfies Record<EventReminder['kind'], string>;
