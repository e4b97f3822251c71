import {
  checkLedgerDate,
  formatMoney,
  isReversible,
  MANUAL_LEDGER_KINDS,
  todayIn,
  type ManualLedgerKind,
} from '@fankurve/shared';
import { checkEuros, centsToEuros } from '@fankurve/shared/rules/money';
import { freeTextProblem } from '@fankurve/shared/rules/freeText';
import { useCallback, useEffect, useId, useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { isApiError } from '../../api/client.js';
import {
  bookLedgerEntry,
  fetchBalances,
  fetchMemberStatement,
  reverseLedgerEntry,
  type MemberBalance,
  type MemberStatementLine,
} from '../../api/ledger.js';
import { formatClubDay, formatDay } from '../../i18n/dates.js';
import { currentLanguage, errorText, messageText } from '../../i18n/index.js';
import { isFormerMember, shownName } from '../../i18n/memberNames.js';
import { useSiteConfig } from '../../session/siteConfig.js';
import { ConfirmDialog } from '../../ui/Dialog.js';
import { Field } from '../../ui/Field.js';
import { Loading } from '../../ui/Loading.js';
import { SlicedItems, SlicesRoom, useRenderSlices } from '../../ui/renderSlices.js';
import { MoneyField } from '../../ui/MoneyField.js';
import { toastError, toastSuccess } from '../../ui/toast.js';
import { BalanceText, Statement, useEntryText } from './Statement.js';
import { StatementImport } from './StatementImport.js';
import { BulkChargeForm } from './BulkChargeForm.js';
import './ledger.css';
import { useLedgerChanges } from './useLedgerChanges.js';

const failureText = (error: unknown, fallback: string) => (isApiError(error) ? errorText(error) : fallback);

/**
 * The balances, reloaded after the admin's own bookings and whenever the server says the ledger
 * changed. The page holding `Balances` loads them, so it shows its sections together once all its
 * data is there (nothing below the balances moves when they arrive).
 */
export function useBalances() {
  const [members, setMembers] = useState<MemberBalance[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [version, setVersion] = useState(0);
  const { t } = useTranslation();
  const reload = useCallback(() => setVersion((n) => n + 1), []);

  useEffect(() => {
    const controller = new AbortController();
    fetchBalances(controller.signal).then(
      (loaded) => {
        setMembers(loaded);
        setError(null);
      },
      (failure: unknown) => {
        if (!controller.signal.aborted) setError(failureText(failure, t('ledger.loadFailed')));
      },
    );
    return () => controller.abort();
  }, [version, t]);

  useLedgerChanges(reload);
  return { members, error, reload, version };
}

export type LoadedBalances = ReturnType<typeof useBalances>;

/**
 * /debts' balances (admin, online; docs/product.md, Tickets and money): every member's balance,
 * largest first, with their unpaid tickets; a member's statement opens below their row, with
 * "reverse" on the entries an admin booked; and the form that books a payment, charge, credit or refund.
 * On a phone each member is a block: the name on its own line, the labelled figures and the button beneath.
 */
export function Balances({ balances, onChanged }: { balances: LoadedBalances; onChanged?: () => void }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const titleId = useId();
  const { members, error, version } = balances;
  // The page around it (its total) reloads with the balances.
  const reload = useCallback(() => {
    balances.reload();
    onChanged?.();
  }, [balances, onChanged]);
  const [open, setOpen] = useState<string | null>(null);
  // Bookings go to members; an erased account only keeps its entries (docs/product.md, Data protection).
  const bookable = useMemo(() => (members ?? []).filter((member) => !isFormerMember(member.username)), [members]);
  const slices = useRenderSlices<HTMLTableSectionElement>(members?.length ?? 0);

  if (error) return <p className="form-error" role="alert">{`${t('ledger.loadFailed')} ${error}`}</p>;
  if (!members) return <Loading />;
  return (
    <section aria-labelledby={titleId} className="ledger-balances">
      <h2 id={titleId} className="section-title">
        {t('ledger.balancesTitle')}
      </h2>
      <p className="ledger-accounts-link">
        <Link to="/debts/accounts">{t('ledger.accounts.link')}</Link>
      </p>
      <StatementImport members={bookable} onBooked={reload} />
      <BulkChargeForm onBooked={reload} />
      <BookEntryForm members={bookable} onBooked={reload} />
      {members.length === 0 ? (
        <p className="muted">{t('ledger.noMembers')}</p>
      ) : (
        <div className="table-scroll">
          <table className="money-table ledger-balances-table" data-testid="balances-table">
            <thead>
              <tr>
                <th scope="col">{t('ledger.member')}</th>
                <th scope="col" className="num">
                  {t('ledger.balance')}
                </th>
                <th scope="col" className="num">
                  {t('ledger.unpaidTickets')}
                </th>
                <th scope="col" className="ledger-actions-head">
                  <span className="sr-only">{t('ledger.statement')}</span>
                </th>
              </tr>
            </thead>
            <tbody ref={slices.listRef}>
              <SlicedItems items={members} slices={slices} keyOf={(member) => member.user_id}>
                {(member) => (
                  <>
                    <tr data-member={member.user_id}>
                      <td className="ledger-name">{shownName(member.username, language) ?? '—'}</td>
                      <td className={member.balanceCents > 0 ? 'num ledger-figure ledger-owed' : 'num ledger-figure'}>
                        <span className="ledger-figure-label">{t('ledger.balance')}</span>
                        {formatMoney(member.balanceCents, language)}
                        {member.open_price_count > 0 ? (
                          <small className="muted debt-open-prices">
                            {t('tickets.openPrices', { count: member.open_price_count })}
                          </small>
                        ) : null}
                        {member.reminded_at ? (
                          <small className="muted ledger-reminded" data-testid="payment-reminded">
                            {t('ledger.reminders.sent', {
                              count: member.reminder_count,
                              date: formatDay(member.reminded_at, language),
                            })}
                          </small>
                        ) : null}
                      </td>
                      <td className="num ledger-figure">
                        <span className="ledger-figure-label">{t('ledger.unpaidTickets')}</span>
                        {member.unpaid_count}
                      </td>
                      <td className="ledger-actions">
                        <button
                          type="button"
                          className="button button-secondary button-small"
                          aria-expanded={open === member.user_id}
                          onClick={() => setOpen(open === member.user_id ? null : member.user_id)}
                        >
                          {open === member.user_id ? t('ledger.hideStatement') : t('ledger.showStatement')}
                        </button>
                      </td>
                    </tr>
                    {open === member.user_id ? (
                      <tr className="ledger-member-statement">
                        <td colSpan={4}>
                          <MemberStatement member={member} version={version} onChanged={reload} />
                        </td>
                      </tr>
                    ) : null}
                  </>
                )}
              </SlicedItems>
            </tbody>
          </table>
          <SlicesRoom slices={slices} />
        </div>
      )}
    </section>
  );
}

/** One member's statement behind their row, with "reverse" on what an admin booked by hand. */
function MemberStatement({ member, version, onChanged }: { member: MemberBalance; version: number; onChanged: () => void }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const entryText = useEntryText();
  const [statement, setStatement] = useState<{ balanceCents: number; lines: MemberStatementLine[] } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [reversing, setReversing] = useState<MemberStatementLine | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    const controller = new AbortController();
    fetchMemberStatement(member.user_id, controller.signal).then(setStatement, (failure: unknown) => {
      if (!controller.signal.aborted) setError(failureText(failure, t('ledger.loadFailed')));
    });
    return () => controller.abort();
  }, [member.user_id, version, t]);

  async function reverse(line: MemberStatementLine) {
    setBusy(true);
    try {
      await reverseLedgerEntry(line.id);
      toastSuccess(t('ledger.reversedToast'));
      setReversing(null);
      onChanged();
    } catch (failure) {
      toastError(failureText(failure, t('ledger.reverseFailed')));
    } finally {
      setBusy(false);
    }
  }

  if (error)
    return (
      <p className="form-error" role="alert">
        {error}
      </p>
    );
  if (!statement) return <p className="muted">{t('ledger.statementLoading')}</p>;
  const byId = new Map(statement.lines.map((line) => [line.id, line]));
  return (
    <div className="ledger-statement" data-testid="member-statement">
      <h3 className="ledger-balance">
        <span>{t('ledger.statementOf', { name: shownName(member.username, language) ?? '—' })}:</span>{' '}
        <BalanceText cents={statement.balanceCents} />
      </h3>
      <Statement
        lines={statement.lines}
        actions={(shown) => {
          const line = byId.get(shown.id);
          if (!line || !isReversible(line, line.reversed)) return null;
          return (
            <button type="button" className="button button-ghost button-small" onClick={() => setReversing(line)}>
              {t('ledger.reverse')}
            </button>
          );
        }}
      />
      {reversing ? (
        <ConfirmDialog
          title={t('ledger.reverseTitle')}
          message={t('ledger.reverseText', {
            kind: entryText(reversing),
            amount: formatMoney(Math.abs(reversing.amount_cents), language),
            date: formatClubDay(reversing.date, language),
          })}
          confirmLabel={t('ledger.reverseConfirm')}
          busy={busy}
          onConfirm={() => void reverse(reversing)}
          onCancel={() => setReversing(null)}
        />
      ) : null}
    </div>
  );
}

type Errors = Partial<Record<'member' | 'amount' | 'date' | 'note', string>>;

/** The admin books a payment, charge, credit or refund for a member; the same rules as the server's. */
function BookEntryForm({ members, onBooked }: { members: readonly MemberBalance[]; onBooked: () => void }) {
  const { t } = useTranslation();
  const today = todayIn(useSiteConfig().time_zone);
  const [userId, setUserId] = useState('');
  const [kind, setKind] = useState<ManualLedgerKind>('payment');
  const [amount, setAmount] = useState('');
  const [date, setDate] = useState(today);
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [saving, setSaving] = useState(false);
  // One key per booking: a double submit or a retry of the same booking books once (docs/architecture.md, Ledger).
  const [bookingKey, setBookingKey] = useState(() => crypto.randomUUID());
  const chosenMember = members.find((member) => member.user_id === userId);
  const chosen = [...members].sort((a, b) => (a.username ?? '').localeCompare(b.username ?? '', 'de', { sensitivity: 'base' }));

  function check(): { errors: Errors; cents: number | null } {
    const found: Errors = {};
    if (!userId) found.member = t('ledger.memberRequired');
    const money = checkEuros(amount);
    let cents: number | null = null;
    if (!amount.trim()) found.amount = t('ledger.amountRequired');
    else if (!money.ok) found.amount = messageText(money.code);
    else if (money.value <= 0 || money.value > 10_000_000) found.amount = messageText('ledgerAmountInvalid');
    else cents = money.value;
    const day = checkLedgerDate(date);
    if (!day.ok) found.date = messageText(day.code);
    const noteProblem = freeTextProblem(note, 'line');
    if (noteProblem) found.note = messageText(noteProblem);
    return { errors: found, cents };
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (saving) return;
    const checked = check();
    setErrors(checked.errors);
    if (Object.values(checked.errors).some(Boolean) || checked.cents === null) return;
    setSaving(true);
    try {
      await bookLedgerEntry({ user_id: userId, kind, amount: centsToEuros(checked.cents), date, note: note.trim() }, bookingKey);
      toastSuccess(t('ledger.booked'));
      setBookingKey(crypto.randomUUID());
      setAmount('');
      setNote('');
      onBooked();
    } catch (failure) {
      toastError(failureText(failure, t('ledger.bookFailed')));
    } finally {
      setSaving(false);
    }
  }

  return (
    <form className="form ledger-book" noValidate onSubmit={(event) => void submit(event)} aria-label={t('ledger.bookTitle')}>
      <Field label={t('ledger.bookFor')} error={errors.member}>
        {(control) => (
          <select {...control} name="member" value={userId} onChange={(event) => setUserId(event.target.value)}>
            <option value="">{t('ledger.chooseMember')}</option>
            {chosen.map((member) => (
              <option key={member.user_id} value={member.user_id}>
                {member.username ?? member.user_id}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label={t('ledger.kind')} hint={t(`ledger.kindHint.${kind}`)}>
        {(control) => (
          <select {...control} name="kind" value={kind} onChange={(event) => setKind(event.target.value as ManualLedgerKind)}>
            {MANUAL_LEDGER_KINDS.map((choice) => (
              <option key={choice} value={choice}>
                {t(`ledger.kinds.${choice}`)}
              </option>
            ))}
          </select>
        )}
      </Field>
      <div className="ledger-book-amount">
        <MoneyField
          label={t('ledger.fieldAmount')}
          name="amount"
          value={amount}
          onValueChange={setAmount}
          tidy
          error={errors.amount}
        />
        {chosenMember ? (
          <p className="ledger-book-balance" data-testid="book-member-balance" aria-live="polite">
            <span>{t('ledger.memberBalance', { name: chosenMember.username ?? '—' })}:</span>{' '}
            <BalanceText cents={chosenMember.balanceCents} />
          </p>
        ) : null}
      </div>
      <Field
        label={t('ledger.fieldDate')}
        name="date"
        type="date"
        value={date}
        min="2000-01-01"
        max="2100-12-31"
        onChange={(event) => setDate(event.target.value)}
        error={errors.date}
      />
      <Field
        label={t('ledger.fieldNote')}
        optional={t('ledger.optional')}
        name="note"
        value={note}
        maxLength={200}
        placeholder={t('ledger.notePlaceholder')}
        onChange={(event) => setNote(event.target.value)}
        error={errors.note}
      />
      <div className="ledger-book-actions">
        <button type="submit" className="button button-primary" disabled={saving}>
          {saving ? t('ledger.booking') : t('ledger.book')}
        </button>
      </div>
    </form>
  );
}
