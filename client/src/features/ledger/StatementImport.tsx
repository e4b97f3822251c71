import { formatMoney } from '@fankurve/shared';
import { useId, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { bookStatement, importStatement, type ImportedLine, type MemberBalance } from '../../api/ledger.js';
import { formatClubDay } from '../../i18n/dates.js';
import { currentLanguage, errorText } from '../../i18n/index.js';
import { toastError, toastSuccess } from '../../ui/toast.js';

/**
 * The treasurer's bank statement on /debts (docs/product.md, "Paying by GiroCode"; docs/architecture.md,
 * Bank statements): a file in, its credits listed with whom each matches; every match by the
 * payment code booked with one tap, any other line with the member the treasurer picks.
 */
export function StatementImport({ members, onBooked }: { members: readonly MemberBalance[]; onBooked(): void }) {
  const { t } = useTranslation();
  const titleId = useId();
  const fileId = useId();
  const [statement, setStatement] = useState<{ id: string; lines: ImportedLine[] } | null>(null);
  const [busy, setBusy] = useState(false);
  const [chosen, setChosen] = useState<Record<string, string>>({});

  const read = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (!file) return;
    setBusy(true);
    try {
      const imported = await importStatement(file);
      setStatement(imported);
      setChosen(Object.fromEntries(imported.lines.flatMap((line) => (line.match ? [[line.line_id, line.match.user_id]] : []))));
    } catch (error) {
      toastError(errorText(error));
    } finally {
      setBusy(false);
      event.target.value = '';
    }
  };

  const book = async (lines: { line_id: string; user_id: string }[]) => {
    if (!statement || lines.length === 0) return;
    setBusy(true);
    try {
      const result = await bookStatement(statement.id, lines);
      toastSuccess(t('ledger.import.booked', result));
      const done = new Set(lines.map((line) => line.line_id));
      setStatement({
        ...statement,
        lines: statement.lines.map((line) => (done.has(line.line_id) ? { ...line, duplicate: true } : line)),
      });
      onBooked();
    } catch (error) {
      toastError(errorText(error));
    } finally {
      setBusy(false);
    }
  };

  const bookable = (line: ImportedLine) => !line.duplicate && line.currency === 'EUR';
  const exact = statement?.lines.filter((line) => bookable(line) && line.match?.reason === 'reference') ?? [];

  return (
    <section className="card statement-import" aria-labelledby={titleId}>
      <h2 id={titleId} className="section-title">
        {t('ledger.import.title')}
      </h2>
      <p className="muted">{t('ledger.import.hint')}</p>
      <label htmlFor={fileId}>{t('ledger.import.file')}</label>{' '}
      <input
        id={fileId}
        type="file"
        accept=".xml,.sta,.mt940,.txt,.csv,text/xml,application/xml,text/csv"
        onChange={read}
        disabled={busy}
      />
      {busy ? <p className="muted">{t('ledger.import.reading')}</p> : null}
      {statement ? (
        <>
          <p data-testid="statement-count">
            {statement.lines.length === 0 ? t('ledger.import.none') : t('ledger.import.count', { count: statement.lines.length })}
          </p>
          {exact.length > 0 ? (
            <button
              type="button"
              className="button"
              disabled={busy}
              onClick={() => book(exact.map((line) => ({ line_id: line.line_id, user_id: line.match!.user_id })))}
            >
              {t('ledger.import.bookExact', { count: exact.length })}
            </button>
          ) : null}
          <ul className="plain-list statement-lines">
            {statement.lines.map((line) => (
              <StatementLineItem
                key={line.line_id}
                line={line}
                members={members}
                chosen={chosen[line.line_id] ?? ''}
                onChoose={(userId) => setChosen({ ...chosen, [line.line_id]: userId })}
                onBook={(userId) => book([{ line_id: line.line_id, user_id: userId }])}
                busy={busy || !bookable(line)}
              />
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}

function StatementLineItem(props: {
  line: ImportedLine;
  members: readonly MemberBalance[];
  chosen: string;
  onChoose(userId: string): void;
  onBook(userId: string): void;
  busy: boolean;
}) {
  const { line, members, chosen } = props;
  const { t } = useTranslation();
  const language = currentLanguage();
  const selectId = useId();
  const amount =
    line.currency === 'EUR'
      ? formatMoney(line.amount_cents, language)
      : `${(line.amount_cents / 100).toFixed(2)} ${line.currency}`;
  return (
    <li className="card statement-line" data-testid="statement-line">
      <p className="statement-line-head">
        <strong>{amount}</strong> · {formatClubDay(line.booked_on, language)} · {line.name}
      </p>
      <p className="muted statement-line-purpose">{line.purpose}</p>
      {line.duplicate ? (
        <span className="badge">{t('ledger.import.duplicate')}</span>
      ) : line.currency !== 'EUR' ? (
        <span className="badge badge-amber">{t('ledger.import.foreign')}</span>
      ) : (
        <div className="statement-line-book">
          <label htmlFor={selectId}>{t('ledger.import.member')}</label>{' '}
          <select id={selectId} value={chosen} onChange={(event) => props.onChoose(event.target.value)}>
            <option value="">{t('ledger.import.nobody')}</option>
            {members.map((member) => (
              <option key={member.user_id} value={member.user_id}>
                {member.username ?? member.user_id}
              </option>
            ))}
          </select>{' '}
          {line.match ? <span className="badge">{t(`ledger.import.reason_${line.match.reason}`)}</span> : null}{' '}
          <button
            type="button"
            className="button button-small"
            disabled={props.busy || !chosen}
            onClick={() => props.onBook(chosen)}
          >
            {t('ledger.import.book')}
          </button>
        </div>
      )}
    </li>
  );
}
