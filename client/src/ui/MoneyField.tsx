import { centsToInputText, checkEuros, formatMoney } from '@fankurve/shared/rules/money';
import type { InputHTMLAttributes, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLanguage, messageText } from '../i18n/index.js';
import { Field, type FieldProps } from './Field.js';

type Props = Omit<FieldProps, 'type' | 'value' | 'onChange' | 'onBlur' | 'children'> & {
  /** The amount as typed (`18,5`, `18.50`, `18,50 €`). */
  value: string;
  onValueChange: (value: string) => void;
  /** Leaving the input writes the amount with two decimals (`18,5` → `18.50`). */
  tidy?: boolean;
  /** Controls that belong to the amount, under its input (e.g. 'not yet available'). */
  children?: ReactNode;
};

/**
 * The one money input of the app (every price: event, ticket options, stadium, transport, the
 * admin's ticket edit). A text input with the phone's decimal keyboard — never type="number", which
 * reads "18,5" differently per browser locale — that accepts what checkEuros accepts
 * (shared/src/rules/money.ts, the server's rule too) and says under it what it understood, in the
 * user's language, or why it cannot.
 */
export function MoneyField({ value, onValueChange, tidy = false, children, hint, error, ...field }: Props) {
  const reading = useMoneyReading(value);
  return (
    <Field {...field} hint={reading.understood ?? hint} error={reading.problem ?? error}>
      {(control) => (
        <>
          <MoneyInput
            {...control}
            value={value}
            onValueChange={onValueChange}
            tidy={tidy}
            disabled={field.disabled}
            name={field.name}
          />
          {children}
        </>
      )}
    </Field>
  );
}

/** What the typed text means: the amount formatted for the user, or the problem's translated text. */
export function useMoneyReading(value: string): { understood?: string; problem?: string } {
  const { t } = useTranslation();
  if (value.trim() === '') return {};
  const checked = checkEuros(value);
  if (!checked.ok) return { problem: messageText(checked.code) };
  return { understood: t('money.understood', { amount: formatMoney(checked.value, currentLanguage()) }) };
}

/** The bare input (a table cell has no room for a field): label it with aria-label. */
export function MoneyInput({
  value,
  onValueChange,
  tidy = false,
  ...input
}: Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange' | 'type'> & {
  value: string;
  onValueChange: (value: string) => void;
  tidy?: boolean;
}) {
  return (
    <input
      type="text"
      inputMode="decimal"
      autoComplete="off"
      {...input}
      value={value}
      onChange={(event) => onValueChange(event.target.value)}
      onBlur={tidy ? (event) => onValueChange(tidyEuros(event.target.value)) : undefined}
    />
  );
}

/** The input's text after leaving it: two decimals (`18,5` → `18.50`), unchanged when it is no amount (the field says why). */
export function tidyEuros(text: string): string {
  const checked = checkEuros(text);
  return checked.ok ? centsToInputText(checked.value) : text;
}
