import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useSession } from '../../session/session.js';
import { useSiteConfig } from '../../session/siteConfig.js';
import { linkify } from './linkify.js';
import './legal.css';

const PAGES = {
  imprint: { field: 'imprint', title: 'legal.imprintTitle' },
  privacy: { field: 'privacy_notice', title: 'legal.privacyTitle' },
} as const;

/** The text with its line breaks, its addresses as links (never HTML). */
function LegalText({ text }: { text: string }) {
  return (
    <div className="legal-text">
      {linkify(text).map((part, index) =>
        'href' in part ? (
          <a
            key={index}
            href={part.href}
            {...(part.href.startsWith('mailto:') ? {} : { target: '_blank', rel: 'noopener noreferrer' })}
          >
            {part.text}
          </a>
        ) : (
          part.text
        ),
      )}
    </div>
  );
}

/**
 * /impressum and /datenschutz (docs/product.md, Screens): the club's imprint and privacy notice as
 * the admin wrote them in the team configuration, for everyone, signed in or not. They come from the
 * device's copy of the configuration (session/siteConfig.ts), so they show offline once loaded.
 */
export function LegalPage({ page }: { page: keyof typeof PAGES }) {
  const { t } = useTranslation();
  const config = useSiteConfig();
  const session = useSession();
  const titleId = useId();
  const { field, title } = PAGES[page];
  const text = config[field];
  return (
    <section className="page legal-page" aria-labelledby={titleId}>
      <h1 id={titleId}>{t(title)}</h1>
      {text ? (
        <LegalText text={text} />
      ) : (
        <p className="notice notice-warning" role="status">
          {t('legal.notWritten')}
        </p>
      )}
      {session.status === 'signedIn' ? null : (
        <p className="auth-switch">
          <Link to="/login">{t('legal.toLogin')}</Link>
        </p>
      )}
    </section>
  );
}

export const ImprintPage = () => <LegalPage page="imprint" />;
export const PrivacyPage = () => <LegalPage page="privacy" />;
