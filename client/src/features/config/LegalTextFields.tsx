import type { MessageCode } from '@fankurve/shared/registry';
import { LEGAL_TEXT_MAX_LENGTH, type LegalTextField } from '@fankurve/shared/rules/siteConfig';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { SiteConfig } from '../../api/config.js';
import { currentLanguage, messageText } from '../../i18n/index.js';
import { Field } from '../../ui/Field.js';

/** The imprint and the privacy notice as typed. */
export type LegalTextValues = Record<LegalTextField, string>;

/** The stored texts as the form shows them ('' while not written). */
export const legalTextValuesOf = (config: Pick<SiteConfig, LegalTextField>): LegalTextValues => ({
  imprint: config.imprint ?? '',
  privacy_notice: config.privacy_notice ?? '',
});

const LABELS = { imprint: 'legal.config.imprint', privacy_notice: 'legal.config.privacy' } as const;

/**
 * The imprint and the privacy notice (docs/architecture.md, Team configuration and theme): plain
 * text for /impressum and /datenschutz, each with its count of characters (at most 20,000). Checked
 * on saving by the same rule as on the server (rules/siteConfig.ts checkLegalText); empty clears.
 */
export function LegalTextFields({
  values,
  errors,
  disabled,
  onChange,
}: {
  values: LegalTextValues;
  errors: Partial<Record<LegalTextField, MessageCode>>;
  disabled: boolean;
  onChange: (field: LegalTextField, value: string) => void;
}) {
  const { t } = useTranslation();
  const headingId = useId();
  const numbers = new Intl.NumberFormat(currentLanguage());
  const field = (name: LegalTextField) => (
    <Field
      label={t(LABELS[name])}
      hint={t('legal.config.count', {
        used: numbers.format([...values[name]].length),
        max: numbers.format(LEGAL_TEXT_MAX_LENGTH),
      })}
      error={errors[name] ? messageText(errors[name]) : undefined}
    >
      {(control) => (
        <textarea
          {...control}
          name={name}
          className="legal-text-input"
          rows={8}
          value={values[name]}
          disabled={disabled}
          spellCheck
          onChange={(event) => onChange(name, event.target.value)}
        />
      )}
    </Field>
  );
  return (
    <fieldset className="team-config-section" aria-labelledby={headingId}>
      <h3 id={headingId}>{t('legal.config.heading')}</h3>
      <p className="field-hint">{t('legal.config.hint')}</p>
      {field('imprint')}
      {field('privacy_notice')}
    </fieldset>
  );
}
