import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

/** Any unknown path: inside the signed-in frame (navigation bar) or, for anonymous visitors, alone (router.tsx). */
export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <section className="not-found" aria-labelledby="not-found-title">
      <div className="card">
        <h1 id="not-found-title">{t('notFound.title')}</h1>
        <p>{t('notFound.text')}</p>
        <Link className="button button-primary" to="/events">
          {t('notFound.backToEvents')}
        </Link>
      </div>
    </section>
  );
}
