import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSyncStatus, useUnreadNotices } from '../data/index.js';
import { RefusalsDialog } from './Refusals.js';

/**
 * Offline / Syncing… / N changes waiting / Synced (docs/architecture.md, change stream), and beside it the
 * number of unread refusals: a button that opens their list. On a narrow screen the state and the
 * waiting changes stack in two short lines so the title and the menu button keep their row.
 */
export default function SyncIndicator() {
  const { t } = useTranslation();
  const status = useSyncStatus();
  const unread = useUnreadNotices() ?? [];
  const [open, setOpen] = useState(false);
  const statusRef = useRef<HTMLDivElement>(null);
  const refocus = useRef(false);

  let state: 'offline' | 'syncing' | 'pending' | 'synced';
  if (!status.online) state = 'offline';
  else if (status.syncing) state = 'syncing';
  else if (status.pending > 0) state = 'pending';
  else state = 'synced';

  const main =
    state === 'offline'
      ? t('sync.offline')
      : state === 'syncing'
        ? t('sync.syncing')
        : state === 'synced'
          ? t('sync.synced')
          : null;
  const pending = status.pending > 0 ? t('sync.pending', { count: status.pending }) : null;
  const full = [main, pending].filter((part): part is string => part !== null).join(' · ');
  const count = unread.length;

  // The list was closed and its last refusal is read: the badge button is gone, the focus goes to the
  // indicator. The read state may arrive after the close (a device query's result is a transition).
  useEffect(() => {
    if (open || !refocus.current || count > 0) return;
    refocus.current = false;
    statusRef.current?.focus();
  }, [open, count]);

  return (
    <div className="sync">
      <div ref={statusRef} className={`sync-indicator sync-${state}`} role="status" aria-live="polite" title={full} tabIndex={-1}>
        <span className="sync-dot" aria-hidden="true" />
        <span className="sync-text">
          {main ? <span className="sync-state">{main}</span> : null}
          {main && pending ? (
            <span className="sync-sep" aria-hidden="true">
              {' · '}
            </span>
          ) : null}
          {pending ? <span className="sync-pending">{pending}</span> : null}
        </span>
      </div>
      {count > 0 ? (
        <button
          type="button"
          className="sync-refusals"
          aria-haspopup="dialog"
          aria-expanded={open}
          aria-label={t('refusals.open', { count })}
          title={t('refusals.open', { count })}
          onClick={() => setOpen(true)}
        >
          <span className="sync-refusals-icon" aria-hidden="true">
            !
          </span>
          <span className="sync-refusals-count">{count}</span>
          <span className="sync-refusals-label">{t('refusals.badge')}</span>
        </button>
      ) : null}
      {open ? (
        <RefusalsDialog
          notices={unread}
          onClose={() => {
            refocus.current = true;
            setOpen(false);
          }}
        />
      ) : null}
    </div>
  );
}
