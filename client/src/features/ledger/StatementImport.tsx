import { formatMoney, type StatementCsvMapping } from '@fankurve/shared';
import { useId, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { bookStatement, csvMappingNeededOf, importStatement, type ImportedLine, type MemberBalance } from '../../api/ledger.js';
import { formatClubDay } from '../../i18n/dates.js';
import { currentLanguage, errorText } from '../../i18n/index.js';
import { toastError, toastSuccess } from '../../ui/toast.js';
import { CsvMappingForm } from './CsvMappingForm.js';

/**
 * The treasurer's bank statement on /debts (docs/product.md, "Paying by GiroCode"; docs/architecture.md,
 * Bank statements): a file in, its credits listed with whom each matches and what each pays; every
 * match by the payment code booked with one tap, any other line with the member the treasurer picks.
 * A CSV layout the app does not know asks once which column holds what (the club keeps the answer).
 */
export function StatementImport({ members, onBooked }: { members: readonly MemberBalance[]; onBooked(): void }) {
  const { t } = useTranslation();
  const titleId = useId();
  const fileId = useId();
  const listId = useId();
  // The treasurer searches a member by name: the typed name decides, in any case.
  const byName = new Map(members.flatMap((member) => (member.username ? [[member.username.toLowerCase(), member.user_id]] : [])));
  const userIdOf = (name: string | undefined) => (name ? byName.get(name.trim().toLowerCase()) : undefined);
  const [statement, setStatement] = useState<{ id: string; lines: ImportedLine[] } | null>(null);
  const [busy, setBusy] = useState(false);
  const [chosen, setChosen] = useState<Record<string, string>>({});
  const [mapping, setMapping] = useState<{ file: File; columns: string[]; mapping: StatementCsvMapping | null } | null>(null);

  const load = async (file: File, csvMapping?: StatementCsvMapping) => {
    setBusy(true);
    try {
      const imported = await importStatement(file, csvMapping);
      setMapping(null);
      setStatement(imported);
      setChosen(Object.fromEntries(imported.lines.flatMap((line) => (line.match ? [[line.line_id, line.match.username]] : []))));
    } catch (error) {
      const needed = csvMappingNeededOf(error);
      if (needed) {
        setStatement(null);
        setMapping({ file, ...needed });
      } else toastError(errorText(error));
    } finally {
      setBusy(false);
    }
  };

  const read = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (file) await load(file);
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
      {mapping ? (
        <CsvMappingForm
          columns={mapping.columns}
          kept={mapping.mapping}
          busy={busy}
          onRead={(chosenMapping) => load(mapping.file, chosenMapping)}
          onCancel={() => setMapping(null)}
        />
      ) : null}
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
          <datalist id={listId}>
            {members.flatMap((member) => (member.username ? [<option key={member.user_id} value={member.username} />] : []))}
          </datalist>
          <ul className="plain-list statement-lines">
            {statement.lines.map((line) => (
              <StatementLineItem
                key={line.line_id}
                line={line}
                listId={listId}
                chosen={chosen[line.line_id] ?? ''}
                chosenUserId={userIdOf(chosen[line.line_id])}
                onChoose={(name) => setChosen({ ...chosen, [line.line_id]: name })}
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
  /** The datalist of members' names. */
  listId: string;
  /** The name typed or matched, and the member it names (undefined: nobody). */
  chosen: string;
  chosenUserId: string | undefined;
  onChoose(userId: string): void;
  onBook(userId: string): void;
  busy: boolean;
}) {
  const { line, chosen, chosenUserId } = props;
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
      {line.pays && !line.duplicate ? <LinePays pays={line.pays} /> : null}
      {line.duplicate ? (
        <span className="badge">{t('ledger.import.duplicate')}</span>
      ) : line.currency !== 'EUR' ? (
        <span className="badge badge-amber">{t('ledger.import.foreign')}</span>
      ) : (
        <div className="statement-line-book">
          <label htmlFor={selectId}>{t('ledger.import.member')}</label>{' '}
          <input
            id={selectId}
            type="search"
            list={props.listId}
            autoComplete="off"
            placeholder={t('ledger.import.searchName')}
            value={chosen}
            onChange={(event) => props.onChoose(event.target.value)}
          />{' '}
          {line.match ? <span className="badge">{t(`ledger.import.reason_${line.match.reason}`)}</span> : null}{' '}
          <button
            type="button"
            className="button button-small"
            disabled={props.busy || !chosenUserId}
            onClick={() => chosenUserId && props.onBook(chosenUserId)}
          >
            {t('ledger.import.book')}
          </button>
        </div>
      )}
    </li>
  );
}

/** What booking the line for its match pays: the tickets in full, and the credit left over. */
function LinePays({ pays }: { pays: NonNullable<ImportedLine['pays']> }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const tickets = pays.tickets.map((ticket) => {
    const event = `${ticket.event_title} ${formatClubDay(ticket.event_date.slice(0, 10), language)}`;
    return ticket.guest_name ? t('ledger.import.guestTicket', { event, guest: ticket.guest_name }) : event;
  });
  const parts = [
    ...(tickets.length > 0 ? [t('ledger.import.pays', { tickets: tickets.join(', ') })] : []),
    ...(pays.credit_cents > 0 ? [t('ledger.import.paysCredit', { amount: formatMoney(pays.credit_cents, language) })] : []),
  ];
  return (
    <p className="statement-line-pays" data-testid="statement-line-pays">
      {parts.length > 0 ? parts.join(' · ') : t('ledger.import.paysNothing')}
    </p>
  );
}
