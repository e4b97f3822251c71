import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { promptInstall, useInstallState } from '../../pwa/install.js';

/**
 * Installing the app from the profile: the browser's install dialog where it offers one, "installed"
 * when running as the app, a short guide on iOS Safari (which has no install dialog), else a sentence
 * that this browser offers no install here.
 */
export function InstallSection() {
  const { t } = useTranslation();
  const headingId = useId();
  const state = useInstallState();

  return (
    <section className="card profile-section" aria-labelledby={headingId}>
      <h2 id={headingId}>{t('profile.install.heading')}</h2>
      {state === 'installed' ? (
        <p className="profile-installed">
          <span className="profile-check" aria-hidden="true">
            ✓
          </span>
          {t('profile.install.installed')}
        </p>
      ) : state === 'available' ? (
        <>
          <p>{t('profile.install.available')}</p>
          <button type="button" className="button button-primary" onClick={() => void promptInstall()}>
            {t('profile.install.button')}
          </button>
        </>
      ) : state === 'ios' ? (
        <>
          <p>{t('profile.install.iosIntro')}</p>
          <ol className="profile-steps">
            <li>{t('profile.install.iosShare')}</li>
            <li>{t('profile.install.iosAdd')}</li>
            <li>{t('profile.install.iosConfirm')}</li>
          </ol>
        </>
      ) : (
        <p className="muted">{t('profile.install.unavailable')}</p>
      )}
    </section>
  );
}
