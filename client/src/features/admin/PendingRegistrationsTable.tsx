import type { Language } from '@fankurve/shared';
import { useTranslation } from 'react-i18next';
import type { PendingUser } from './api.js';
import { formatTimestamp } from './format.js';

/** Pending registrations with Approve and Decline (the caller confirms): on /admin/tasks and /users. */
export function PendingRegistrationsTable({
  users,
  language,
  onApprove,
  onDecline,
}: {
  users: readonly PendingUser[];
  language: Language;
  onApprove: (user: PendingUser) => void;
  onDecline: (user: PendingUser) => void;
}) {
  const { t } = useTranslation();
  return (
    <table className="admin-table">
      <thead>
        <tr>
          <th>{t('admin.username')}</th>
          <th>{t('admin.email')}</th>
          <th>{t('admin.registered')}</th>
          <th>{t('admin.actions')}</th>
        </tr>
      </thead>
      <tbody>
        {users.map((u) => (
          <tr key={u.id}>
            <td>{u.username}</td>
            <td>{u.email}</td>
            <td>{formatTimestamp(u.created_at, language)}</td>
            <td>
              <div className="admin-actions">
                <button type="button" className="button button-primary button-small" onClick={() => onApprove(u)}>
                  {t('admin.approve')}
                </button>
                <button type="button" className="button button-danger button-small" onClick={() => onDecline(u)}>
                  {t('admin.decline')}
                </button>
              </div>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
