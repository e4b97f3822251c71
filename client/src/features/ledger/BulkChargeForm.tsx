import { formatMoney, type LedgerChargeInput } from '@fankurve/shared';
import { checkEuros } from '@fankurve/shared/rules/money';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { chargeInBulk } from '../../api/ledger.js';
import { useEvents, useTransports } from '../../data/index.js';
import { currentLanguage, errorText, messageText } from '../../i18n/index.js';
import { Field } from '../../ui/Field.js';
import { MoneyField } from '../../ui/MoneyField.js';
import { toastError, toastSuccess } from '../../ui/toast.js';

type Target = 'all' | 'event' | 'transport';

/**
 * One charge to many members on /debts (docs/architecture.md, Ledger, "Bulk charges"): the
 * membership fee to all, a cost to everyone going to an event, the fare to a transport option's
 * passengers; an amount each or a total split evenly, whose odd cents the answer names.
 */
export function BulkChargeForm({ onBooked }: { onBooked(): void }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const titleId = useId();
  const events = useEvents();
  const [target, setTarget] = useState<Target>('all');
  const [eventId, setEventId] = useState('');
  const [transportId, setTransportId] = useState('');
  const [split, setSplit] = useState<'each' | 'total'>('each');
  const [amount, setAmount] = useState('');
  const [note, setNote] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const transports = useTransports(eventId);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const euros = checkEuros(amount);
    if (!euros.ok) return setProblem(messageText(euros.code));
    const chosen: LedgerChargeInput['target'] =
      target === 'all' ? { all_members: true } : target === 'event' ? { event_id: eventId } : { transport_id: transportId };
    setBusy(true);
    try {
      const value = euros.value / 100;
      const answer = await chargeInBulk({ target: chosen, ...(split === 'each' ? { amount: value } : { total: value }), note });
      const shares = new Set(answer.entries.map((entry) => entry.amount));
      toastSuccess(
        t(shares.size > 1 ? 'ledger.bulk.doneUneven' : 'ledger.bulk.done', {
          count: answer.entries.length,
          total: formatMoney(Math.round(answer.total * 100), language),
        }),
      );
      setProblem(null);
      setAmount('');
      setNote('');
      onBooked();
    } catch (error) {
      setProblem(errorText(error));
      toastError(errorText(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="card bulk-charge" aria-labelledby={titleId} onSubmit={submit}>
      <h3 id={titleId}>{t('ledger.bulk.title')}</h3>
      <Field label={t('ledger.bulk.target')}>
        {(control) => (
          <select {...control} value={target} onChange={(event) => setTarget(event.target.value as Target)}>
            <option value="all">{t('ledger.bulk.allMembers')}</option>
            <option value="event">{t('ledger.bulk.eventGoing')}</option>
            <option value="transport">{t('ledger.bulk.passengers')}</option>
          </select>
        )}
      </Field>
      {target !== 'all' ? (
        <Field label={t('ledger.bulk.event')}>
          {(control) => (
            <select {...control} value={eventId} required onChange={(event) => setEventId(event.target.value)}>
              <option value="">–</option>
              {(events ?? []).map((event) => (
                <option key={event.id} value={event.id}>
                  {event.title} · {event.date.slice(0, 10)}
                </option>
              ))}
            </select>
          )}
        </Field>
      ) : null}
      {target === 'transport' ? (
        <Field label={t('ledger.bulk.transport')}>
          {(control) => (
            <select {...control} value={transportId} required onChange={(event) => setTransportId(event.target.value)}>
              <option value="">–</option>
              {(transports ?? []).map((transport) => (
                <option key={transport.id} value={transport.id}>
                  {transport.name}
                </option>
              ))}
            </select>
          )}
        </Field>
      ) : null}
      <Field label={t('ledger.bulk.split')}>
        {(control) => (
          <select {...control} value={split} onChange={(event) => setSplit(event.target.value as 'each' | 'total')}>
            <option value="each">{t('ledger.bulk.each')}</option>
            <option value="total">{t('ledger.bulk.total')}</option>
          </select>
        )}
      </Field>
      <MoneyField label={t('ledger.bulk.amount')} value={amount} onValueChange={setAmount} />
      <Field label={t('ledger.bulk.note')}>
        {(control) => (
          <input {...control} value={note} required maxLength={200} onChange={(event) => setNote(event.target.value)} />
        )}
      </Field>
      {split === 'total' ? <p className="muted">{t('ledger.bulk.splitHint')}</p> : null}
      {problem ? (
        <p className="form-error" role="alert">
          {problem}
        </p>
      ) : null}
      <button type="submit" className="button" disabled={busy}>
        {t('ledger.bulk.submit')}
      </button>
    </form>
  );
}
