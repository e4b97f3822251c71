import type { MessageCode } from '@fankurve/shared/registry';
import {
  ACCOUNT_HOLDER_MAX_LENGTH,
  formatIban,
  LOYALTY_SEASONS_MAX,
  LOYALTY_SEASONS_MIN,
} from '@fankurve/shared/rules/siteConfig';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { SiteConfig } from '../../api/config.js';
import { messageText } from '../../i18n/index.js';
import { Field } from '../../ui/Field.js';

/** The fields of the club's account and the loyalty seasons, as typed. */
export interface AccountValues {
  account_holder: string;
  iban: string;
  bic: string;
  loyalty_seasons: string;
}
export type AccountField = keyof AccountValues;

/** The stored values as the form shows them: the IBAN in groups of four. */
export const accountValuesOf = (config: SiteConfig): AccountValues => ({
  account_holder: config.account_holder ?? '',
  iban: config.iban ? formatIban(config.iban) : '',
  bic: config.bic ?? '',
  loyalty_seasons: String(config.loyalty_seasons),
});

/**
 * The club's bank account (holder, IBAN, optional BIC: the GiroCode members pay with) and the
 * seasons that count for loyalty points, inside the team configuration's form. Checked on saving by
 * the same rules as on the server (rules/iban.ts, rules/siteConfig.ts).
 */
export function AccountFields({
  values,
  errors,
  onChange,
}: {
  values: AccountValues;
  errors: Partial<Record<AccountField, MessageCode>>;
  onChange: (field: AccountField, value: string) => void;
}) {
  const { t } = useTranslation();
  const accountId = useId();
  const loyaltyId = useId();
  const error = (field: AccountField) => (errors[field] ? messageText(errors[field]) : undefined);
  const text = (field: AccountField) => ({
    name: field,
    value: values[field],
    error: error(field),
    autoComplete: 'off',
    onChange: (event: { target: { value: string } }) => onChange(field, event.target.value),
  });

  return (
    <>
      <fieldset className="team-config-section" aria-labelledby={accountId}>
        <h3 id={accountId}>{t('account.config.accountTitle')}</h3>
        <p className="field-hint">{t('account.config.accountHint')}</p>
        <Field label={t('account.config.holder')} maxLength={ACCOUNT_HOLDER_MAX_LENGTH} {...text('account_holder')} />
        <div className="field-row team-config-bank">
          <Field
            label={t('account.config.iban')}
            hint={t('account.config.ibanHint')}
            maxLength={42}
            spellCheck={false}
            autoCapitalize="characters"
            {...text('iban')}
          />
          <Field label={t('account.config.bic')} maxLength={14} spellCheck={false} autoCapitalize="characters" {...text('bic')} />
        </div>
      </fieldset>
      <fieldset className="team-config-section" aria-labelledby={loyaltyId}>
        <h3 id={loyaltyId}>{t('account.config.loyaltyTitle')}</h3>
        <Field
          label={t('account.config.loyaltySeasons')}
          hint={t('account.config.loyaltySeasonsHint')}
          type="number"
          inputMode="numeric"
          min={LOYALTY_SEASONS_MIN}
          max={LOYALTY_SEASONS_MAX}
          step={1}
          className="team-config-seasons"
          {...text('loyalty_seasons')}
        />
      </fieldset>
    </>
  );
}
