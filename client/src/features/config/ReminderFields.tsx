import { DEADLINE_REMINDER_HOURS_MAX, PAYMENT_REMINDER_DAYS_MAX, REMINDER_DAYS_BEFORE_MAX } from '@fankurve/shared/constants';
import type { MessageCode } from '@fankurve/shared/registry';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { AdminSiteConfig } from '../../api/config.js';
import { messageText } from '../../i18n/index.js';
import { Field } from '../../ui/Field.js';

/** The reminder times as typed. */
export interface ReminderValues {
  reminder_days_before: string;
  deadline_reminder_hours: string;
  payment_reminder_days: string;
}
export type ReminderField = keyof ReminderValues;

/** The stored times as the form shows them (the admin's answer carries them). */
export const reminderValuesOf = (config: Pick<AdminSiteConfig, ReminderField>): ReminderValues => ({
  reminder_days_before: String(config.reminder_days_before),
  deadline_reminder_hours: String(config.deadline_reminder_hours),
  payment_reminder_days: String(config.payment_reminder_days),
});

/**
 * When members who have not answered are reminded (docs/product.md, Answer deadlines and reminders):
 * days before the event and hours before its answer deadline; and after how many days members who
 * owe money are reminded to pay (Tickets and money, "Reminders to pay"); 0 for off. Checked on saving
 * by the same rules as on the server (rules/siteConfig.ts).
 */
export function ReminderFields({
  values,
  errors,
  disabled,
  onChange,
}: {
  values: ReminderValues;
  errors: Partial<Record<ReminderField, MessageCode>>;
  disabled: boolean;
  onChange: (field: ReminderField, value: string) => void;
}) {
  const { t } = useTranslation();
  const headingId = useId();
  const paymentHeadingId = useId();
  const number = (field: ReminderField, max: number) => ({
    name: field,
    value: values[field],
    error: errors[field] ? messageText(errors[field]) : undefined,
    type: 'number',
    inputMode: 'numeric' as const,
    min: 0,
    max,
    step: 1,
    disabled,
    className: 'team-config-seasons',
    onChange: (event: { target: { value: string } }) => onChange(field, event.target.value),
  });
  return (
    <>
      <fieldset className="team-config-section" aria-labelledby={headingId}>
        <h3 id={headingId}>{t('deadlines.config.heading')}</h3>
        <div className="field-row team-config-reminders">
          <Field
            label={t('deadlines.config.daysBefore')}
            hint={t('deadlines.config.daysBeforeHint')}
            {...number('reminder_days_before', REMINDER_DAYS_BEFORE_MAX)}
          />
          <Field
            label={t('deadlines.config.hoursBefore')}
            hint={t('deadlines.config.hoursBeforeHint')}
            {...number('deadline_reminder_hours', DEADLINE_REMINDER_HOURS_MAX)}
          />
        </div>
      </fieldset>
      <fieldset className="team-config-section" aria-labelledby={paymentHeadingId}>
        <h3 id={paymentHeadingId}>{t('ledger.reminders.heading')}</h3>
        <Field
          label={t('ledger.reminders.days')}
          hint={t('ledger.reminders.daysHint')}
          {...number('payment_reminder_days', PAYMENT_REMINDER_DAYS_MAX)}
        />
      </fieldset>
    </>
  );
}
