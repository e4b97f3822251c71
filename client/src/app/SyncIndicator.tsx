import { useTranslation } from 'react-i18next';
import { useSyncStatus } from '../data/index.js';

/** Offline / Syncing… / N changes waiting / Synced (ARCHITECTURE: sync indicator). */
export default function SyncIndicator() {
  const { t } = useTranslation();
  const status = useSyncStatus();
  let state: 'offline' | 'syncing' | 'pending' | 'synced';
  if (!status.online) state = 'offline';
  else if (status.syncing) state = 'syncing';
  else if (status.pending > 0) state = 'pending';
  else state = 'synced';

  const parts = [
    state === 'offline'
      ? t('sync.offline')
      : state === 'syncing'
        ? t('sync.syncing')
        : state === 'synced'
          ? t('sync.synced')
          : null,
    status.pending > 0 ? t('sync.pending', { count: status.pending }) : null,
  ].filter((part): part is string => part !== null);

  return (
    <div className={`sync-indicator sync-${state}`} role="status" aria-live="polite">
      <span className="sync-dot" aria-hidden="true" />
      <span className="sync-text">{parts.join(' · ')}</span>
    </div>
  );
}
