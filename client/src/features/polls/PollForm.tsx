import {
  POLL_OPTION_MAX_LENGTH,
  POLL_OPTIONS_MAX,
  POLL_OPTIONS_MIN,
  POLL_QUESTION_MAX_LENGTH,
  type PollResults,
} from '@fankurve/shared/constants';
import { todayIn } from '@fankurve/shared/dates';
import { checkPollClosingTime, checkPollOptions, checkPollQuestion } from '@fankurve/shared/rules/polls';
import { useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/client.js';
import { createPoll, updatePoll } from '../../api/polls.js';
import { useEvents, useSyncState, type PollView } from '../../data/index.js';
import { formatEventDate } from '../../i18n/eventDates.js';
import { currentLanguage, errorText, messageText } from '../../i18n/index.js';
import { useSiteConfig } from '../../session/siteConfig.js';
import { Modal } from '../../ui/Dialog.js';
import { Field } from '../../ui/Field.js';
import { toastError, toastSuccess } from '../../ui/toast.js';

interface Props {
  /** The poll to edit (question and closing time); null for a new one. */
  poll: PollView | null;
  /** A new poll on an event's page belongs to that event. */
  eventId?: string;
  onClose: () => void;
}

type Errors = Partial<Record<'question' | 'options' | 'closesAt', string>>;

/** The stored closing time as a datetime-local value (`YYYY-MM-DDTHH:MM`). */
const asLocalInput = (closesAt: string | null | undefined) => (closesAt ? closesAt.slice(0, 16).replace(' ', 'T') : '');

/**
 * The admin's form for a poll (docs/product.md, Polls): question, 2–10 answers (added and removed),
 * one or several choices, when members see the result, the closing time (the club's time; empty:
 * open until closed) and the event; editing changes the question and the closing time. The shared
 * rules check it before sending; online work through REST, the list follows through sync.
 */
export function PollForm({ poll, eventId, onClose }: Props) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const online = useSyncState('online');
  const events = useEvents();
  const today = todayIn(useSiteConfig().time_zone);
  const [question, setQuestion] = useState(poll?.question ?? '');
  const [options, setOptions] = useState<string[]>(['', '']);
  const [multiple, setMultiple] = useState(false);
  const [results, setResults] = useState<PollResults>('after_vote');
  const [closesAt, setClosesAt] = useState(asLocalInput(poll?.closes_at));
  const [event, setEvent] = useState(eventId ?? '');
  const [errors, setErrors] = useState<Errors>({});
  const [saving, setSaving] = useState(false);

  const choices = useMemo(
    () => (events ?? []).filter((e) => e.date.slice(0, 10) >= today || e.id === eventId),
    [events, today, eventId],
  );

  function check(): Errors {
    const found: Errors = {};
    const checkedQuestion = checkPollQuestion(question);
    if (!checkedQuestion.ok) found.question = messageText(checkedQuestion.code);
    if (!poll) {
      const checkedOptions = checkPollOptions(options);
      if (!checkedOptions.ok) found.options = messageText(checkedOptions.code);
    }
    if (closesAt.trim() !== '') {
      const checkedTime = checkPollClosingTime(closesAt);
      if (!checkedTime.ok) found.closesAt = messageText(checkedTime.code);
    }
    return found;
  }

  async function submit(submitted: FormEvent) {
    submitted.preventDefault();
    if (saving || !online) return;
    const found = check();
    setErrors(found);
    if (found.question || found.options || found.closesAt) return;
    const closes_at = closesAt.trim() === '' ? null : closesAt;
    setSaving(true);
    try {
      // A closed poll keeps its closing time: only its question is sent.
      if (poll) await updatePoll(poll.id, poll.open ? { question: question.trim(), closes_at } : { question: question.trim() });
      else
        await createPoll({
          question: question.trim(),
          options: options.map((option) => option.trim()),
          multiple,
          results,
          closes_at,
          event_id: event || null,
        });
      toastSuccess(t(poll ? 'polls.saved' : 'polls.created'));
      onClose();
    } catch (error) {
      toastError(isApiError(error) ? errorText(error) : t('polls.saveFailed'));
      setSaving(false);
    }
  }

  const setOption = (index: number, value: string) =>
    setOptions((current) => current.map((old, i) => (i === index ? value : old)));

  return (
    <Modal title={t(poll ? 'polls.editTitle' : 'polls.newTitle')} onClose={onClose} busy={saving}>
      <form className="form poll-edit-form" noValidate onSubmit={(submitted) => void submit(submitted)}>
        <Field
          label={t('polls.fieldQuestion')}
          name="question"
          value={question}
          onChange={(change) => setQuestion(change.target.value)}
          maxLength={POLL_QUESTION_MAX_LENGTH}
          required
          hint={t('polls.limitHint', { max: POLL_QUESTION_MAX_LENGTH })}
          error={errors.question}
        />
        {poll ? null : (
          <fieldset className="poll-edit-options">
            <legend>{t('polls.answers')}</legend>
            <small className="field-hint">
              {t('polls.optionsHint', { max: POLL_OPTIONS_MAX, length: POLL_OPTION_MAX_LENGTH })}
            </small>
            {options.map((option, index) => (
              <div key={index} className="poll-edit-option">
                <Field
                  label={t('polls.fieldOption', { number: index + 1 })}
                  name={`option-${index + 1}`}
                  value={option}
                  onChange={(change) => setOption(index, change.target.value)}
                  maxLength={POLL_OPTION_MAX_LENGTH}
                  required
                />
                {options.length > POLL_OPTIONS_MIN ? (
                  <button
                    type="button"
                    className="button button-small button-danger-ghost"
                    aria-label={t('polls.removeOptionLabel', { number: index + 1 })}
                    onClick={() => setOptions((current) => current.filter((_, i) => i !== index))}
                  >
                    {t('polls.removeOption')}
                  </button>
                ) : null}
              </div>
            ))}
            {errors.options ? (
              <p className="field-error" role="alert">
                {errors.options}
              </p>
            ) : null}
            {options.length < POLL_OPTIONS_MAX ? (
              <button type="button" className="button button-small button-secondary" onClick={() => setOptions([...options, ''])}>
                {t('polls.addOption')}
              </button>
            ) : null}
          </fieldset>
        )}
        {poll ? null : (
          <>
            <label className="check">
              <input
                type="checkbox"
                name="multiple"
                checked={multiple}
                onChange={(change) => setMultiple(change.target.checked)}
              />
              {t('polls.fieldMultiple')}
            </label>
            <Field label={t('polls.fieldResults')}>
              {(control) => (
                <select
                  {...control}
                  name="results"
                  value={results}
                  onChange={(change) => setResults(change.target.value as PollResults)}
                >
                  <option value="after_vote">{t('polls.resultsAfterVote')}</option>
                  <option value="after_close">{t('polls.resultsAfterClose')}</option>
                </select>
              )}
            </Field>
          </>
        )}
        <Field
          label={t('polls.fieldClosesAt')}
          optional={t('polls.optional')}
          name="closes_at"
          type="datetime-local"
          value={closesAt}
          onChange={(change) => setClosesAt(change.target.value)}
          disabled={poll !== null && !poll.open}
          hint={t('polls.closesAtHint')}
          error={errors.closesAt}
        />
        {poll ? null : (
          <Field label={t('polls.fieldEvent')} optional={t('polls.optional')}>
            {(control) => (
              <select {...control} name="event" value={event} onChange={(change) => setEvent(change.target.value)}>
                <option value="">{t('polls.noEvent')}</option>
                {choices.map((choice) => (
                  <option key={choice.id} value={choice.id}>
                    {choice.title} · {formatEventDate(choice.date, language)}
                  </option>
                ))}
              </select>
            )}
          </Field>
        )}
        {online ? null : <p className="offline-hint">{t('polls.offline')}</p>}
        <div className="modal-actions">
          <button type="button" className="button button-secondary" onClick={onClose} disabled={saving}>
            {t('common.cancel')}
          </button>
          <button type="submit" className="button button-primary" disabled={saving || !online}>
            {saving ? t('polls.saving') : t(poll ? 'polls.submitEdit' : 'polls.submitNew')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
