import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router-dom';
import './legalLinks.css';

/**
 * The imprint and the privacy notice (/impressum, /datenschutz), linked from the sign-in frame, the
 * signed-in frame's foot and the nav bar's menu (docs/product.md, Screens).
 */
export function LegalLinks({ className }: { className: string }) {
  const { t } = useTranslation();
  return (
    <ul className={`legal-links ${className}`} aria-label={t('legal.links')}>
      <li>
        <NavLink to="/impressum">{t('legal.imprint')}</NavLink>
      </li>
      <li>
        <NavLink to="/datenschutz">{t('legal.privacy')}</NavLink>
      </li>
    </ul>
  );
}
