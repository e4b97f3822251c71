import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguageSelect } from '../ui/LanguageSelect.js';
import { LegalLinks } from './LegalLinks.js';
import { useSiteConfig } from '../session/siteConfig.js';

/** The frame of the anonymous pages: the club's title above a card, the language choice and the imprint and privacy links below. */
export function AuthLayout({ children }: { children: ReactNode }) {
  const config = useSiteConfig();
  const { t } = useTranslation();
  return (
    <div className="auth-page">
      <header className="auth-header">
        {config.logo_filename ? (
          <img className="brand-logo" src={`/uploads/${config.logo_filename}`} alt="" onError={hideBrokenImage} />
        ) : null}
        <span className="auth-title">{config.site_title}</span>
      </header>
      <main className="auth-main">
        <div className="card auth-card">{children}</div>
        <footer className="auth-footer">
          <LanguageSelect />
          <LegalLinks className="auth-legal" />
          <span className="auth-tagline">{t('app.tagline')}</span>
        </footer>
      </main>
    </div>
  );
}

export function hideBrokenImage(event: { currentTarget: HTMLImageElement }): void {
  event.currentTarget.hidden = true;
}
