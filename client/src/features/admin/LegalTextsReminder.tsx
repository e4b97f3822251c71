import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useSiteConfig } from '../../session/siteConfig.js';

/**
 * On /admin/tasks until the imprint and the privacy notice are written (docs/product.md, Screens):
 * which is missing, and a link to the team configuration where the admin writes them.
 */
export function LegalTextsReminder() {
  const { t } = useTranslation();
  const { imprint, privacy_notice: privacyNotice } = useSiteConfig();
  if (imprint && privacyNotice) return null;
  const text =
    !imprint && !privacyNotice
      ? t('legal.tasksNotice')
      : !imprint
        ? t('legal.tasksNoticeImprint')
        : t('legal.tasksNoticePrivacy');
  return (
    <p className="notice notice-warning" role="status" data-testid="legal-texts-reminder">
      {text} <Link to="/config">{t('legal.tasksNoticeLink')}</Link>
    </p>
  );
}
