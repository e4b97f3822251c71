import { useTranslation } from 'react-i18next';

/** The Loading text (session loading, lazy screens). */
export function Loading({ note }: { note?: string }) {
  const { t } = useTranslation();
  return (
    <div className="loading" role="status">
      <div className="spinner" aria-hidden="true" />
      <span>{t('common.loading')}</span>
      {note ? <span className="loading-note">{note}</span> : null}
    </div>
  );
}
