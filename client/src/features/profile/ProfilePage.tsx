import { LANGUAGES, type Language } from '@fankurve/shared/constants';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { updateUser, useUser } from '../../session/session.js';
import { applyLanguage, errorText, i18next, isLanguage } from '../../i18n/index.js';
import { Field } from '../../ui/Field.js';
import { MentionList } from '../comments/index.js';
import { StatsLink } from '../stats/index.js';
import { toastError, toastSuccess } from '../../ui/toast.js';
import { updateOwnLanguage } from '../../api/profile.js';
import { CalendarSection } from './CalendarSection.js';
import { DataExportButton } from './DataExportButton.js';
import { DevicesSection } from './DevicesSection.js';
import { EraseAccountSection } from './EraseAccountSection.js';
import { formatDate } from './format.js';
import { InstallSection } from './InstallSection.js';
import { PushSettings } from './PushSettings.js';
import { StorageSection } from './StorageSection.js';
import './profile.css';

/**
 * /profile, the signed-in user's own page (docs/architecture.md, Profile and prompts): their data, the language, installing the
 * app, its storage on this device, push notifications, the calendar feed, their mentions, the password, their signed-in devices
 * and, last, erasing their account.
 */
export function ProfilePage() {
  const { t } = useTranslation();
  const user = useUser();
  const titleId = useId();
  const dataId = useId();
  const languageId = useId();
  const passwordId = useId();
  const [savingLanguage, setSavingLanguage] = useState<Language | null>(null);
  const language = savingLanguage ?? user.language;

  /**
   * The choice applies at once; the server keeps it (the user update with {language}), and the
   * signed-in profile with its cached copy takes the server's answer, so a reload and the member's
   * other devices keep it. A refusal (or no network) puts the previous language back.
   */
  const changeLanguage = async (next: Language) => {
    const previous = user.language;
    if (next === previous || savingLanguage) return;
    setSavingLanguage(next);
    await applyLanguage(next);
    try {
      const answer = await updateOwnLanguage(user.id, next);
      updateUser({ ...user, ...answer.user });
      // i18next.t, not the render's t: the notice is in the language just chosen (or put back).
      toastSuccess(i18next.t('profile.language.saved'));
    } catch (error) {
      await applyLanguage(previous);
      const text = errorText(error);
      toastError(text === i18next.t('errors.generic') ? i18next.t('profile.language.failed') : text);
    } finally {
      setSavingLanguage(null);
    }
  };

  return (
    <section className="page profile-page" aria-labelledby={titleId}>
      <h1 id={titleId}>{t('profile.title')}</h1>

      <section className="card profile-section" aria-labelledby={dataId}>
        <h2 id={dataId}>{t('profile.data.heading')}</h2>
        <dl className="profile-facts">
          <div>
            <dt>{t('profile.data.username')}</dt>
            <dd>{user.username}</dd>
          </div>
          <div>
            <dt>{t('profile.data.email')}</dt>
            <dd>{user.email}</dd>
          </div>
          <div>
            <dt>{t('profile.data.role')}</dt>
            <dd>{t(`profile.data.roles.${user.scope}`)}</dd>
          </div>
          {user.created_at ? (
            <div>
              <dt>{t('profile.data.memberSince')}</dt>
              <dd>{formatDate(user.created_at, language)}</dd>
            </div>
          ) : null}
        </dl>
        <DataExportButton />
      </section>

      <section className="card profile-section" aria-labelledby={languageId}>
        <h2 id={languageId}>{t('profile.language.heading')}</h2>
        <Field
          label={t('profile.language.label')}
          hint={savingLanguage ? t('profile.language.saving') : t('profile.language.hint')}
        >
          {(control) => (
            <select
              {...control}
              className="profile-language"
              value={language}
              disabled={savingLanguage !== null}
              onChange={(event) => {
                if (isLanguage(event.target.value)) void changeLanguage(event.target.value);
              }}
            >
              {LANGUAGES.map((code) => (
                <option key={code} value={code}>
                  {t(`language.${code}`)}
                </option>
              ))}
            </select>
          )}
        </Field>
      </section>

      <InstallSection />

      <StorageSection />

      <PushSettings />

      <CalendarSection />

      <StatsLink variant="card" />

      <MentionList className="card profile-section" />

      <section className="card profile-section" aria-labelledby={passwordId}>
        <h2 id={passwordId}>{t('profile.password.heading')}</h2>
        <p>{t('profile.password.text')}</p>
        <Link to="/change-password" className="button button-secondary">
          {t('profile.password.link')}
        </Link>
      </section>

      <DevicesSection language={language} />

      <EraseAccountSection />
    </section>
  );
}
