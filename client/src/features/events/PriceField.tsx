import type { ReactNode } from 'react';
import { Field, type FieldProps } from '../../ui/Field.js';
import { tidyEuros } from './eventForm.js';

type Props = Omit<FieldProps, 'type' | 'value' | 'onChange' | 'onBlur' | 'children'> & {
  /** Euros as the number input holds them. */
  value: string;
  onValueChange: (value: string) => void;
  /** Leaving the input writes the amount with two decimals (`12.5` → `12.50`). */
  tidy?: boolean;
  /** Controls that belong to the price, under its input (e.g. 'not yet available'). */
  children?: ReactNode;
};

/** A labelled euro amount (cents; a phone shows the keyboard with the decimal point). */
export function PriceField({
  label,
  optional,
  hint,
  error,
  className,
  id,
  value,
  onValueChange,
  tidy = false,
  children,
  ...input
}: Props) {
  return (
    <Field label={label} optional={optional} hint={hint} error={error} className={className} id={id}>
      {(control) => (
        <>
          <input
            type="number"
            inputMode="decimal"
            min={0}
            step={0.01}
            {...control}
            {...input}
            value={value}
            onChange={(event) => onValueChange(event.target.value)}
            onBlur={tidy ? (event) => onValueChange(tidyEuros(event.target.value)) : undefined}
          />
          {children}
        </>
      )}
    </Field>
  );
}
