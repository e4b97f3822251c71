import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

/** Any unknown path. */
export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <main className="not-found">
      <div className="card">
        <h1>{t('notFound.title')}</h1>
        <p>{t('notFound.text')}</p>
        <Link className="button button-primary" to="/events">
          {t('notFound.backToEvents')}
        </Link>
      </div>
    </main>
  );
}
