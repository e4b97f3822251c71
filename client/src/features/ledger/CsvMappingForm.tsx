import type { StatementCsvMapping } from '@fankurve/shared';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';

/** The fields of a mapping, the two needed first. */
const FIELDS = ['booked_on', 'amount', 'name', 'iban', 'purpose', 'reference', 'currency'] as const;
type MappingField = (typeof FIELDS)[number];
const REQUIRED: readonly MappingField[] = ['booked_on', 'amount'];

/** Header texts German and other banks use for each field: the form's first guess. */
const GUESSES: Record<MappingField, RegExp> = {
  booked_on: /buchung|datum|date|booking/i,
  amount: /betrag|amount|umsatz/i,
  name: /name|empf|auftraggeber|zahlungspflichtig|payer|beg(ü|ue)nstigt/i,
  iban: /iban|konto/i,
  purpose: /verwendung|zweck|purpose|remittance|buchungstext/i,
  reference: /referenz|reference|end-to-end/i,
  currency: /w(ä|ae)hrung|currency/i,
};

/** The kept mapping where its columns are in this file, else the first column whose header fits each field. */
function firstGuess(columns: readonly string[], kept: StatementCsvMapping | null): Record<MappingField, string> {
  const taken = new Set<string>();
  const guess = {} as Record<MappingField, string>;
  for (const field of FIELDS) {
    const keptColumn = kept?.[field];
    const column =
      keptColumn && columns.includes(keptColumn) ? keptColumn : columns.find((c) => !taken.has(c) && GUESSES[field].test(c));
    guess[field] = column ?? '';
    if (column) taken.add(column);
  }
  return guess;
}

/**
 * Which column of an unknown CSV layout holds what (docs/product.md, "Paying by GiroCode", bank
 * statements): a choice of the file's columns per field, the date and the amount needed; the server
 * keeps the mapping for the club when the file reads with it.
 */
export function CsvMappingForm(props: {
  columns: readonly string[];
  kept: StatementCsvMapping | null;
  busy: boolean;
  onRead(mapping: StatementCsvMapping): void;
  onCancel(): void;
}) {
  const { t } = useTranslation();
  const titleId = useId();
  const idBase = useId();
  const [values, setValues] = useState(() => firstGuess(props.columns, props.kept));
  const complete = REQUIRED.every((field) => values[field]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!complete) return;
    const mapping = Object.fromEntries(FIELDS.filter((field) => values[field]).map((field) => [field, values[field]]));
    props.onRead(mapping as StatementCsvMapping);
  };

  return (
    <form className="card csv-mapping" aria-labelledby={titleId} onSubmit={submit}>
      <h3 id={titleId}>{t('ledger.import.mappingTitle')}</h3>
      <p className="muted">{t('ledger.import.mappingHint')}</p>
      <div className="csv-mapping-fields">
        {FIELDS.map((field) => (
          <div key={field} className="field">
            <label htmlFor={`${idBase}-${field}`}>
              {t(`ledger.import.field_${field}`)}
              {REQUIRED.includes(field) ? ' *' : ''}
            </label>
            <select
              id={`${idBase}-${field}`}
              value={values[field]}
              required={REQUIRED.includes(field)}
              onChange={(event) => setValues({ ...values, [field]: event.target.value })}
            >
              <option value="">{t('ledger.import.mappingNone')}</option>
              {props.columns.map((column) => (
                <option key={column} value={column}>
                  {column}
                </option>
              ))}
            </select>
          </div>
        ))}
      </div>
      <div className="csv-mapping-actions">
        <button type="submit" className="button" disabled={props.busy || !complete}>
          {t('ledger.import.mappingRead')}
        </button>
        <button type="button" className="button button-secondary" onClick={props.onCancel}>
          {t('ledger.import.mappingCancel')}
        </button>
      </div>
    </form>
  );
}
