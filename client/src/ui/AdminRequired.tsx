import { useTranslation } from 'react-i18next';

/** What a member sees on an admin screen (docs/architecture.md, readings: admin routes are blocked in the client too). */
export function AdminRequired() {
  const { t } = useTranslation();
  return (
    <section className="page">
      <div className="empty-state admin-required" role="alert">
        {t('serverMessages.adminRequired')}
      </div>
    </section>
  );
}
