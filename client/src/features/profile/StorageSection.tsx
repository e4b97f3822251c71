import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { onStoragePersistence, readStorageInfo, type StorageInfo } from '../../pwa/storage.js';

/** Bytes as megabytes (10^6) in the member's language: `12,3` (de), `12.3` (en). */
function megabytes(bytes: number, language: string, digits: number): string {
  return new Intl.NumberFormat(language, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(
    bytes / 1_000_000,
  );
}

/**
 * The app's storage on this device (docs/product.md, Profile): whether the browser keeps it when
 * space runs low (asked for once the app is installed or a change waits, pwa/storage.ts) and how much
 * it uses; one line where the browser does not say.
 */
export function StorageSection() {
  const { t, i18n } = useTranslation();
  const headingId = useId();
  const [info, setInfo] = useState<StorageInfo | null | 'loading'>('loading');

  useEffect(() => {
    let live = true;
    const read = () =>
      void readStorageInfo().then((next) => {
        if (live) setInfo(next);
      });
    read();
    const stop = onStoragePersistence(read);
    return () => {
      live = false;
      stop();
    };
  }, []);

  const language = i18n.language;
  let body;
  if (info === 'loading') body = <p className="muted">{t('storage.loading')}</p>;
  else if (info === null) body = <p className="muted">{t('storage.unavailable')}</p>;
  else {
    const used = info.usage === null ? null : megabytes(info.usage, language, 1);
    const quota = info.quota === null ? null : megabytes(info.quota, language, 0);
    body = (
      <>
        <dl className="profile-facts">
          <div>
            <dt>{t('storage.persistent')}</dt>
            <dd>
              {info.persisted === null
                ? t('storage.persistentUnknown')
                : info.persisted
                  ? t('storage.persistentYes')
                  : t('storage.persistentNo')}
            </dd>
          </div>
          {used !== null ? (
            <div>
              <dt>{t('storage.used')}</dt>
              <dd>{quota !== null ? t('storage.usedOf', { used, quota }) : t('storage.usedOnly', { used })}</dd>
            </div>
          ) : null}
        </dl>
        {info.persisted !== null ? (
          <p className="muted profile-storage-note">
            {info.persisted ? t('storage.persistentYesText') : t('storage.persistentNoText')}
          </p>
        ) : null}
      </>
    );
  }

  return (
    <section className="card profile-section" aria-labelledby={headingId}>
      <h2 id={headingId}>{t('storage.heading')}</h2>
      {body}
    </section>
  );
}
