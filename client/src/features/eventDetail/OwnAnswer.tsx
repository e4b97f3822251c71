import type { AttendanceStatus, AttendeeDoc } from '@fankurve/shared';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { setOwnAttendance, updateOwnAnswer } from '../../data/index.js';
import { errorText } from '../../i18n/index.js';
import { toastError } from '../../ui/toast.js';
import { answerOverlay, useOverlay } from './shared.js';

interface Props {
  eventId: string;
  userId: string;
  own: AttendeeDoc | null;
  /**
   * Why the answers are shown but no longer changed (the server refuses it too): the event is past,
   * or its answer deadline has passed; null while they are open.
   */
  closed: 'past' | 'deadline' | null;
}

const ANSWERS = [
  { status: 'going', key: 'eventDetail.answerGoing' },
  { status: 'maybe', key: 'eventDetail.answerMaybe' },
  { status: null, key: 'eventDetail.answerNotGoing' },
] as const satisfies readonly { status: AttendanceStatus | null; key: string }[];

type Change = Parameters<typeof updateOwnAnswer>[2];

/** The member's own answers (docs/product.md, Attendance and guests), written to the device and synced: they work offline. */
export function OwnAnswer({ eventId, userId, own: stored, closed }: Props) {
  const { t } = useTranslation();
  const id = useId();
  const [saving, setSaving] = useState(false);
  const [own, beginChange, endChange] = useOverlay(stored);
  const status = own?.status ?? null;
  const locked = saving || closed !== null;
  const closedId = `${id}-closed`;

  async function run(
    task: () => Promise<void>,
    fallback: 'errors.updateAttendanceFailed' | 'errors.removeAttendanceFailed',
    patch: Partial<AttendeeDoc> = {},
  ) {
    if (saving) return;
    setSaving(true);
    beginChange(patch);
    try {
      await task();
      endChange(false);
    } catch (error) {
      endChange(true);
      toastError(errorText(error, fallback));
    } finally {
      setSaving(false);
    }
  }

  const answer = (next: AttendanceStatus | null) => {
    if (next === status) return;
    void run(
      () => setOwnAttendance(eventId, userId, next),
      next === null ? 'errors.removeAttendanceFailed' : 'errors.updateAttendanceFailed',
    );
  };
  const change = (patch: Change) => {
    if (!own) return;
    void run(() => updateOwnAnswer(eventId, userId, patch), 'errors.updateAttendanceFailed', answerOverlay(own, patch));
  };

  return (
    <section className="card detail-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="card-title">
        {t('eventDetail.yourAnswer')}
      </h2>
      {closed ? (
        <p id={closedId} className="answers-closed">
          {closed === 'past' ? t('eventDetail.answersClosed') : t('deadlines.closedAnswer')}
        </p>
      ) : null}
      <div
        className={closed ? 'answer answer-closed' : 'answer'}
        role="group"
        aria-label={t('eventDetail.yourAnswer')}
        aria-describedby={closed ? closedId : undefined}
      >
        {ANSWERS.map(({ status: value, key }) => (
          <button
            key={key}
            type="button"
            className={`answer-button answer-${value ?? 'none'}`}
            // "Absage" removes the answer, it is not a stored state: without an answer nothing is selected.
            aria-pressed={value !== null && status === value}
            disabled={locked}
            onClick={() => answer(value)}
          >
            {t(key)}
          </button>
        ))}
      </div>
      {own ? (
        <div className="own-flags">
          <fieldset className="choice-group">
            <legend>{t('eventDetail.ticket')}</legend>
            <label className="check">
              <input
                type="checkbox"
                checked={own.needs_ticket}
                disabled={locked}
                onChange={(e) => change({ needs_ticket: e.target.checked })}
              />
              {t('eventDetail.needsTicket')}
            </label>
            <label className="check">
              <input
                type="checkbox"
                checked={own.has_ticket}
                disabled={locked}
                onChange={(e) => change({ has_ticket: e.target.checked })}
              />
              {t('eventDetail.hasTicket')}
            </label>
          </fieldset>
          <fieldset className="choice-group">
            <legend>{t('eventDetail.transport')}</legend>
            <label className="check">
              <input
                type="radio"
                name={`${id}-transport`}
                checked={own.needs_transport}
                disabled={locked}
                onChange={() => change({ needs_transport: true })}
              />
              {t('eventDetail.needsSeat')}
            </label>
            <label className="check">
              <input
                type="radio"
                name={`${id}-transport`}
                checked={!own.needs_transport}
                disabled={locked}
                onChange={() => change({ needs_transport: false })}
              />
              {t('eventDetail.ownTransport')}
            </label>
          </fieldset>
        </div>
      ) : closed ? null : (
        <p className="muted">{t('eventDetail.notAnswered')}</p>
      )}
    </section>
  );
}
