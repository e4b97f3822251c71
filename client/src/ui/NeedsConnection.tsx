import { useId, useSyncExternalStore, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** Whether the device is online: the same signal the sync status reads (navigator.onLine and its events). */
function subscribeOnline(onChange: () => void): () => void {
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  return () => {
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
  };
}

export function useOnline(): boolean {
  return useSyncExternalStore(
    subscribeOnline,
    () => navigator.onLine,
    () => true,
  );
}

/**
 * The frame of a page that reads the server over REST and has nothing on the device (the admin's
 * pages, docs/architecture.md, Online-only pages): offline it says that the page needs a connection
 * instead of loading forever; when the connection returns, the page mounts and loads by itself.
 */
export function NeedsConnection({ title, children }: { title: string; children: ReactNode }) {
  const { t } = useTranslation();
  const online = useOnline();
  const titleId = useId();
  if (online) return <>{children}</>;
  return (
    <section className="page needs-connection" aria-labelledby={titleId}>
      <h1 id={titleId}>{title}</h1>
      <div className="needs-connection-note" role="status">
        <p>{t('common.needsConnection')}</p>
        <p className="muted">{t('common.needsConnectionReturn')}</p>
      </div>
    </section>
  );
}
