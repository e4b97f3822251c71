import { RETENTION_YEARS_MAX, RETENTION_YEARS_MIN } from '@fankurve/shared/constants';
import type { MessageCode } from '@fankurve/shared/registry';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { AdminSiteConfig } from '../../api/config.js';
import { messageText } from '../../i18n/index.js';
import { Field } from '../../ui/Field.js';

/** The retention as typed. */
export interface RetentionValues {
  retention_years: string;
}
export type RetentionField = keyof RetentionValues;

/** The stored retention as the form shows it (the admin's answer carries it). */
export const retentionValuesOf = (config: Pick<AdminSiteConfig, RetentionField>): RetentionValues => ({
  retention_years: String(config.retention_years),
});

/**
 * How many years after the end of their year an erased member's bookings and tickets are kept for
 * the club's books before they are removed (docs/product.md, Data protection; docs/architecture.md,
 * Erasure and retention). Checked on saving by the same rule as on the server (rules/erasure.ts).
 */
export function RetentionFields({
  values,
  errors,
  disabled,
  onChange,
}: {
  values: RetentionValues;
  errors: Partial<Record<RetentionField, MessageCode>>;
  disabled: boolean;
  onChange: (field: RetentionField, value: string) => void;
}) {
  const { t } = useTranslation();
  const headingId = useId();
  return (
    <fieldset className="team-config-section" aria-labelledby={headingId}>
      <h3 id={headingId}>{t('erasure.config.heading')}</h3>
      <Field
        label={t('erasure.config.years')}
        hint={t('erasure.config.yearsHint')}
        name="retention_years"
        value={values.retention_years}
        error={errors.retention_years ? messageText(errors.retention_years) : undefined}
        type="number"
        inputMode="numeric"
        min={RETENTION_YEARS_MIN}
        max={RETENTION_YEARS_MAX}
        step={1}
        disabled={disabled}
        className="team-config-seasons"
        onChange={(event) => onChange('retention_years', event.target.value)}
      />
    </fieldset>
  );
}
