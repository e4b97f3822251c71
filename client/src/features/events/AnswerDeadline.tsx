import type { Language } from '@fankurve/shared/constants';
import { answerTimeLeft } from '@fankurve/shared/rules/attendance';
import { useTranslation } from 'react-i18next';
import { formatWallClockShort } from '../../i18n/dates.js';
import { isoWallClock } from '../../i18n/eventDates.js';
import './deadline.css';

interface Props {
  /** The event's answer deadline (club wall clock); nothing is shown without one. */
  deadline: string | null | undefined;
  /** The club's wall clock now (`useClubNow`). */
  clubNow: string;
  language: Language;
  /** The id of the value, for the answer buttons' aria-describedby once the deadline has passed. */
  id?: string;
}

/**
 * An event's answer deadline as one fact of its card or page (docs/product.md, Answer deadlines and
 * reminders): "Antworten bis Sa. 14.03. 18:00 · noch 2 Tage", and once it has passed
 * "… · Antwortfrist abgelaufen".
 */
export function AnswerDeadline({ deadline, clubNow, language, id }: Props) {
  const { t } = useTranslation();
  if (!deadline) return null;
  const left = answerTimeLeft(deadline, clubNow);
  const leftText =
    left === null
      ? t('deadlines.closed')
      : left.unit === 'days'
        ? t('deadlines.left.days', { count: left.count })
        : left.unit === 'hours'
          ? t('deadlines.left.hours', { count: left.count })
          : t('deadlines.left.minutes', { count: left.count });
  return (
    <div className="answer-deadline">
      <dt>{t('deadlines.label')}</dt>
      <dd id={id} className={left === null ? 'answer-deadline-closed' : undefined}>
        <time dateTime={isoWallClock(deadline)}>{formatWallClockShort(deadline, language)}</time>
        {' · '}
        <span className="answer-deadline-left">{leftText}</span>
      </dd>
    </div>
  );
}
