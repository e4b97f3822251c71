import {
  DEFAULT_DEADLINE_REMINDER_HOURS,
  DEFAULT_PAYMENT_REMINDER_DAYS,
  DEFAULT_REMINDER_DAYS_BEFORE,
  DEFAULT_RETENTION_YEARS,
  IMAGE_MAX_BYTES,
  TOAST_DURATION_MS,
} from '@fankurve/shared/constants';
import type { MessageCode } from '@fankurve/shared/registry';
import { isHexColour, textColourOn } from '@fankurve/shared/rules/colour';
import { checkRetentionYears } from '@fankurve/shared/rules/erasure';
import { checkClubAccount } from '@fankurve/shared/rules/iban';
import {
  checkDeadlineReminderHours,
  checkLegalText,
  checkPaymentReminderDays,
  checkLoyaltySeasons,
  checkReminderDaysBefore,
  checkTeamConfig,
  SITE_TITLE_MAX_LENGTH,
  TEAM_NAME_MAX_LENGTH,
  type TeamConfigField,
} from '@fankurve/shared/rules/siteConfig';
import { useEffect, useId, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/client.js';
import {
  deleteLogo,
  fetchAdminSiteConfig,
  fetchVersion,
  saveSiteConfig,
  uploadLogo,
  type AdminSiteConfig,
  type SiteConfig,
} from '../../api/config.js';
import { applySiteConfig, useSiteConfig } from '../../session/siteConfig.js';
import { useSyncStatus } from '../../data/index.js';
import { i18next, messageText } from '../../i18n/index.js';
import { ConfirmDialog } from '../../ui/Dialog.js';
import { Field, FormError } from '../../ui/Field.js';
import { toastError, toastSuccess } from '../../ui/toast.js';
import { TeamFinder } from '../matches/index.js';
import { AccountFields, accountValuesOf, type AccountField, type AccountValues } from './AccountFields.js';
import { LegalTextFields, legalTextValuesOf, type LegalTextValues } from './LegalTextFields.js';
import { ReminderFields, reminderValuesOf, type ReminderField, type ReminderValues } from './ReminderFields.js';
import { RetentionFields, retentionValuesOf, type RetentionField, type RetentionValues } from './RetentionFields.js';
import './config.css';

interface FormValues extends AccountValues, ReminderValues, RetentionValues, LegalTextValues {
  team_id: string;
  team_name: string;
  site_title: string;
  theme_color: string;
  auto_import_matches: boolean;
}

/** The reminder times and the retention until the admin's answer brings the stored ones. */
const DEFAULT_REMINDERS = {
  reminder_days_before: DEFAULT_REMINDER_DAYS_BEFORE,
  deadline_reminder_hours: DEFAULT_DEADLINE_REMINDER_HOURS,
  payment_reminder_days: DEFAULT_PAYMENT_REMINDER_DAYS,
  retention_years: DEFAULT_RETENTION_YEARS,
};

const valuesOf = (
  config: SiteConfig,
  autoImport: boolean,
  reminders: Pick<AdminSiteConfig, ReminderField | RetentionField> = DEFAULT_REMINDERS,
): FormValues => ({
  team_id: String(config.team_id),
  team_name: config.team_name,
  site_title: config.site_title,
  theme_color: config.theme_color,
  auto_import_matches: autoImport,
  ...accountValuesOf(config),
  ...reminderValuesOf(reminders),
  ...retentionValuesOf(reminders),
  ...legalTextValuesOf(config),
});

type FormField = TeamConfigField | AccountField | ReminderField | RetentionField | keyof LegalTextValues;
const FIELDS: readonly FormField[] = [
  'team_id',
  'team_name',
  'site_title',
  'theme_color',
  'account_holder',
  'iban',
  'bic',
  'loyalty_seasons',
  'reminder_days_before',
  'deadline_reminder_hours',
  'payment_reminder_days',
  'retention_years',
  'imprint',
  'privacy_notice',
];

/**
 * What to say about a failed call: the server's message by its code, no
 * connection when the server was not reached, else the screen's fallback.
 */
function failureText(error: unknown, fallback: string): string {
  if (isApiError(error)) {
    if (error.offline) return i18next.t('errors.offline');
    if (error.code) return messageText(error.code, error.message) || fallback;
  }
  return fallback;
}

/**
 * The Team configuration tab (docs/architecture.md, Team configuration and theme): team id (with the
 * team finder), team name, site title, theme colour, the daily match import, the logo and the running
 * version. Saving applies the configuration on this device at once; every other device takes it from
 * the change stream.
 */
export function TeamConfigForm() {
  const { t } = useTranslation();
  const { online } = useSyncStatus();
  const live = useSiteConfig();
  const formRef = useRef<HTMLFormElement>(null);
  const finderRef = useRef<HTMLDetailsElement>(null);
  const colourId = useId();
  const [values, setValues] = useState<FormValues>(() => valuesOf(live, false));
  // Something typed and not saved yet: what arrives from the server does not overwrite it.
  const [dirty, setDirty] = useState(false);
  const dirtyRef = useRef(false);
  dirtyRef.current = dirty;
  // The daily import switch comes only with the admin's answer.
  const [loaded, setLoaded] = useState(false);
  const [errors, setErrors] = useState<Partial<Record<FormField, MessageCode>>>({});
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const [version, setVersion] = useState<string | null>(null);

  useEffect(() => {
    let stopped = false;
    fetchVersion().then(
      (answer) => !stopped && setVersion(answer.version),
      () => undefined,
    );
    return () => {
      stopped = true;
    };
  }, []);

  // The newest configuration from the server, read again whenever it changes (another admin saved:
  // the change stream told this device). While something is typed, the form keeps it.
  const takeAnswer = (config: AdminSiteConfig) => {
    applySiteConfig(config);
    setValues(valuesOf(config, config.auto_import_matches, config));
    setLoaded(true);
  };
  useEffect(() => {
    if (dirty) return;
    let stopped = false;
    fetchAdminSiteConfig().then(
      (answer) => {
        if (!stopped && !dirtyRef.current) takeAnswer(answer.config);
      },
      () => undefined,
    );
    return () => {
      stopped = true;
    };
  }, [live, dirty]);

  // The saved notice clears after 3 seconds.
  useEffect(() => {
    if (!saved) return;
    const timer = setTimeout(() => setSaved(false), TOAST_DURATION_MS);
    return () => clearTimeout(timer);
  }, [saved]);

  const set = <K extends keyof FormValues>(field: K, value: FormValues[K]) => {
    setValues((current) => ({ ...current, [field]: value }));
    setDirty(true);
    setSaved(false);
    if (field in errors) setErrors((current) => ({ ...current, [field]: undefined }));
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (saving || !online) return;
    setFailure(null);
    // The same rules as the server's (rules/siteConfig.ts): every field's problem at once.
    const checked = checkTeamConfig(values);
    const account = checkClubAccount(values);
    const seasons = checkLoyaltySeasons(values.loyalty_seasons);
    const days = checkReminderDaysBefore(values.reminder_days_before);
    const hours = checkDeadlineReminderHours(values.deadline_reminder_hours);
    const paymentDays = checkPaymentReminderDays(values.payment_reminder_days);
    const retention = checkRetentionYears(values.retention_years);
    const imprint = checkLegalText('imprint', values.imprint);
    const privacyNotice = checkLegalText('privacy_notice', values.privacy_notice);
    if (
      !checked.ok ||
      !account.ok ||
      !seasons.ok ||
      !days.ok ||
      !hours.ok ||
      !paymentDays.ok ||
      !retention.ok ||
      !imprint.ok ||
      !privacyNotice.ok
    ) {
      const problems: Partial<Record<FormField, MessageCode>> = {
        ...(checked.ok ? {} : checked.problems),
        ...(account.ok ? {} : { [account.field]: account.code }),
        ...(seasons.ok ? {} : { loyalty_seasons: seasons.code }),
        ...(days.ok ? {} : { reminder_days_before: days.code }),
        ...(hours.ok ? {} : { deadline_reminder_hours: hours.code }),
        ...(paymentDays.ok ? {} : { payment_reminder_days: paymentDays.code }),
        ...(retention.ok ? {} : { retention_years: retention.code }),
        ...(imprint.ok ? {} : { imprint: imprint.code }),
        ...(privacyNotice.ok ? {} : { privacy_notice: privacyNotice.code }),
      };
      setErrors(problems);
      const first = FIELDS.find((field) => problems[field]);
      if (first) formRef.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
      return;
    }
    setSaving(true);
    try {
      const answer = await saveSiteConfig({
        ...checked.value,
        auto_import_matches: values.auto_import_matches,
        ...account.value,
        loyalty_seasons: seasons.value,
        reminder_days_before: days.value,
        deadline_reminder_hours: hours.value,
        payment_reminder_days: paymentDays.value,
        retention_years: retention.value,
        imprint: imprint.value,
        privacy_notice: privacyNotice.value,
      });
      dirtyRef.current = false;
      takeAnswer(answer.config);
      setDirty(false);
      setSaved(true);
    } catch (error) {
      setFailure(failureText(error, t('config.team.saveFailed')));
    } finally {
      setSaving(false);
    }
  }

  const text = (field: 'team_name' | 'site_title', maxLength: number, hint?: string) => (
    <Field
      label={t(`config.team.${field === 'team_name' ? 'teamName' : 'siteTitle'}`)}
      hint={hint}
      name={field}
      value={values[field]}
      maxLength={maxLength}
      autoComplete="off"
      error={errors[field] ? messageText(errors[field]) : undefined}
      onChange={(event) => set(field, event.target.value)}
    />
  );
  const previewColour = isHexColour(values.theme_color) ? values.theme_color : live.theme_color;

  return (
    <div className="team-config">
      {/* The tab above shows the name; the heading is for the outline. */}
      <h2 className="sr-only">{t('config.team.title')}</h2>
      {online ? null : <p className="offline-hint">{t('config.team.offline')}</p>}
      <form ref={formRef} className="form card" noValidate onSubmit={(event) => void submit(event)}>
        <div className="field-row team-config-club">
          <Field
            label={t('config.team.teamId')}
            name="team_id"
            value={values.team_id}
            inputMode="numeric"
            autoComplete="off"
            maxLength={10}
            error={errors.team_id ? messageText(errors.team_id) : undefined}
            onChange={(event) => set('team_id', event.target.value)}
          />
          {text('team_name', TEAM_NAME_MAX_LENGTH)}
        </div>
        <details ref={finderRef} className="team-config-finder">
          <summary>{t('config.team.findTeam')}</summary>
          <TeamFinder
            onPick={({ teamId, teamName }) => {
              setValues((current) => ({ ...current, team_id: String(teamId), team_name: teamName }));
              setDirty(true);
              setSaved(false);
              setErrors((current) => ({ ...current, team_id: undefined, team_name: undefined }));
              if (finderRef.current) finderRef.current.open = false;
              formRef.current?.querySelector<HTMLElement>('[name="team_id"]')?.focus();
            }}
          />
        </details>
        {text('site_title', SITE_TITLE_MAX_LENGTH, t('config.team.siteTitleHint'))}
        <Field
          id={colourId}
          label={t('config.team.themeColor')}
          hint={t('config.team.themeColorHint')}
          error={errors.theme_color ? messageText(errors.theme_color) : undefined}
        >
          {(control) => (
            <div className="colour-input">
              <input
                type="color"
                className="colour-swatch"
                aria-label={t('config.team.themeColorPick')}
                value={previewColour.toLowerCase()}
                onChange={(event) => set('theme_color', event.target.value.toUpperCase())}
              />
              <input
                {...control}
                name="theme_color"
                value={values.theme_color}
                maxLength={7}
                autoComplete="off"
                autoCapitalize="characters"
                spellCheck={false}
                onChange={(event) => set('theme_color', event.target.value.trim())}
              />
            </div>
          )}
        </Field>
        <div className="theme-preview" aria-hidden="true">
          <span className="theme-preview-label">{t('config.team.preview')}</span>
          <div className="theme-preview-bar" style={{ background: previewColour, color: textColourOn(previewColour) }}>
            {live.logo_filename ? <img src={`/uploads/${encodeURIComponent(live.logo_filename)}`} alt="" /> : null}
            <span>{values.site_title.trim() || live.site_title}</span>
          </div>
        </div>
        <label className="check team-config-auto">
          <input
            type="checkbox"
            name="auto_import_matches"
            checked={values.auto_import_matches}
            disabled={!loaded}
            onChange={(event) => set('auto_import_matches', event.target.checked)}
          />
          <span>
            {t('config.team.autoImport')}
            <small className="field-hint">{t('config.team.autoImportHint')}</small>
          </span>
        </label>
        <AccountFields values={values} errors={errors} onChange={(field, value) => set(field, value)} />
        <ReminderFields values={values} errors={errors} disabled={!loaded} onChange={(field, value) => set(field, value)} />
        <RetentionFields values={values} errors={errors} disabled={!loaded} onChange={(field, value) => set(field, value)} />
        <LegalTextFields values={values} errors={errors} disabled={!loaded} onChange={(field, value) => set(field, value)} />
        <FormError message={failure} />
        <div className="team-config-actions">
          <button type="submit" className="button button-primary" disabled={saving || !online || !loaded}>
            {saving ? t('config.team.saving') : t('config.team.save')}
          </button>
          <p className="team-config-saved" role="status">
            {saved ? messageText('configSaved') : ''}
          </p>
        </div>
      </form>
      <LogoSection logo={live.logo_filename} online={online} />
      <p className="team-config-version muted">
        {t('config.team.version')} <span className="team-config-version-value">{version ?? '…'}</span>
      </p>
    </div>
  );
}

/** The logo (an image of at most 5 MB): preview, upload or replace, delete after confirmation. */
function LogoSection({ logo, online }: { logo: string | null; online: boolean }) {
  const { t } = useTranslation();
  const inputId = useId();
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);

  async function upload(change: ChangeEvent<HTMLInputElement>) {
    const file = change.target.files?.[0];
    change.target.value = '';
    if (!file) return;
    // The server decides by the content; these catch the obvious at once.
    if (!file.type.startsWith('image/')) return void toastError(messageText('onlyImages'));
    if (file.size > IMAGE_MAX_BYTES) return void toastError(messageText('fileTooLarge'));
    setBusy(true);
    try {
      const answer = await uploadLogo(file);
      applySiteConfig(answer.config);
      toastSuccess(messageText('logoUploaded'));
    } catch (error) {
      toastError(failureText(error, messageText('logoUploadFailed')));
    } finally {
      setBusy(false);
    }
  }

  async function remove() {
    setBusy(true);
    try {
      const answer = await deleteLogo();
      applySiteConfig(answer.config);
      setConfirming(false);
      toastSuccess(messageText('logoDeleted'));
    } catch (error) {
      toastError(failureText(error, t('config.team.deleteLogoFailed')));
    } finally {
      setBusy(false);
    }
  }

  const disabled = busy || !online;
  return (
    <section className="card team-config-logo" aria-labelledby={`${inputId}-title`}>
      <h3 id={`${inputId}-title`}>{t('config.team.logo')}</h3>
      <div className="team-config-logo-row">
        <div className="team-config-logo-preview">
          {logo ? (
            <img key={logo} src={`/uploads/${encodeURIComponent(logo)}`} alt={t('config.team.logoAlt')} />
          ) : (
            <span className="muted">{t('config.team.noLogo')}</span>
          )}
        </div>
        <div className="team-config-logo-actions">
          <input
            id={inputId}
            className="sr-only"
            type="file"
            accept="image/png,image/jpeg,image/gif,image/webp"
            disabled={disabled}
            onChange={(change) => void upload(change)}
          />
          <label
            htmlFor={inputId}
            className={`button button-secondary${disabled ? ' is-disabled' : ''}`}
            aria-disabled={disabled}
          >
            {busy ? t('config.team.logoBusy') : logo ? t('config.team.replaceLogo') : t('config.team.uploadLogo')}
          </label>
          {logo ? (
            <button type="button" className="button button-danger" disabled={disabled} onClick={() => setConfirming(true)}>
              {t('config.team.deleteLogo')}
            </button>
          ) : null}
        </div>
      </div>
      <p className="field-hint">{t('config.team.logoHint')}</p>
      {confirming ? (
        <ConfirmDialog
          title={t('config.team.deleteLogoTitle')}
          message={t('config.team.deleteLogoText')}
          confirmLabel={t('config.team.deleteLogo')}
          busy={busy}
          onConfirm={() => void remove()}
          onCancel={() => setConfirming(false)}
        />
      ) : null}
    </section>
  );
}
