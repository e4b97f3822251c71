import { formatMoney, type LedgerKind } from '@fankurve/shared';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatClubDay } from '../../i18n/dates.js';
import { currentLanguage } from '../../i18n/index.js';
import './ledger.css';

/** A line of a statement as both the device (/my-tickets) and the admin's REST view (/debts) give it, in cents. */
export interface StatementRow {
  id: string;
  date: string;
  kind: LedgerKind;
  amount_cents: number;
  description: string;
  balance_after_cents: number;
  reversed: boolean;
}

/** How many of the newest lines show before "show all". */
const FIRST_LINES = 20;

/** What a balance means in words: owed, in credit, or settled. */
export function BalanceText({ cents }: { cents: number }) {
  const { t } = useTranslation();
  const amount = formatMoney(Math.abs(cents), currentLanguage());
  if (cents > 0) return <strong className="ledger-owed">{t('ledger.balanceOwed', { amount })}</strong>;
  if (cents < 0) return <strong className="ledger-credit">{t('ledger.balanceCredit', { amount })}</strong>;
  return <strong>{t('ledger.balanceEven')}</strong>;
}

/** The text of an entry: its kind in words and the entry's own text (a ticket's event, an admin's note). */
export function useEntryText() {
  const { t } = useTranslation();
  return (line: Pick<StatementRow, 'kind' | 'description'>) =>
    line.description ? `${t(`ledger.kinds.${line.kind}`)} · ${line.description}` : t(`ledger.kinds.${line.kind}`);
}

/**
 * A member's statement (docs/product.md, Tickets and money): date, text, amount (signed, positive
 * raises the debt) and the balance after it, newest first; the first 20, then "show all". `actions`
 * puts controls on a line (the admin's "reverse"), beneath its text. Fits 360 px: on a phone the
 * date moves above the text, which wraps; the figures do not.
 */
export function Statement({ lines, actions }: { lines: readonly StatementRow[]; actions?: (line: StatementRow) => ReactNode }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const entryText = useEntryText();
  const [all, setAll] = useState(false);
  if (lines.length === 0) return <p className="muted">{t('ledger.empty')}</p>;
  const newestFirst = [...lines].reverse();
  const shown = all ? newestFirst : newestFirst.slice(0, FIRST_LINES);
  return (
    <>
      <div className="table-scroll ledger-scroll">
        <table className="money-table ledger-table" data-testid="statement">
          <thead>
            <tr>
              <th scope="col" className="ledger-date">
                {t('ledger.date')}
              </th>
              <th scope="col">{t('ledger.text')}</th>
              <th scope="col" className="num">
                {t('ledger.amount')}
              </th>
              <th scope="col" className="num">
                {t('ledger.balanceAfter')}
              </th>
            </tr>
          </thead>
          <tbody>
            {shown.map((line) => (
              <tr
                key={line.id}
                data-entry={line.id}
                data-kind={line.kind}
                className={line.reversed ? 'ledger-reversed' : undefined}
              >
                <td className="ledger-date">
                  <time dateTime={line.date}>{formatClubDay(line.date, language)}</time>
                </td>
                <td className="ledger-text">
                  <time className="ledger-text-date" dateTime={line.date}>
                    {formatClubDay(line.date, language)}
                  </time>
                  {entryText(line)}
                  {line.reversed ? <span className="badge badge-muted ledger-badge">{t('ledger.reversed')}</span> : null}
                  {actions ? <LineActions>{actions(line)}</LineActions> : null}
                </td>
                <td className={line.amount_cents > 0 ? 'num ledger-debit' : 'num ledger-payment'}>
                  {formatMoney(line.amount_cents, language)}
                </td>
                <td className="num">{formatMoney(line.balance_after_cents, language)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {lines.length > FIRST_LINES ? (
        <button type="button" className="button button-ghost button-small" onClick={() => setAll(!all)}>
          {all ? t('ledger.showFewer') : t('ledger.showAll', { count: lines.length })}
        </button>
      ) : null}
    </>
  );
}

/** A line's controls beneath its text; nothing when the line has none. */
function LineActions({ children }: { children: ReactNode }) {
  return children ? <div className="ledger-line-actions">{children}</div> : null;
}
