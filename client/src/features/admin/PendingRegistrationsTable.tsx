import type { Language } from '@fankurve/shared';
import { useTranslation } from 'react-i18next';
import { RowActions, RowTable } from '../../ui/RowTable.js';
import type { PendingUser } from '../../api/admin.js';
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
    <RowTable
      rows={users}
      columns={[
        { header: t('admin.username'), cell: (u) => u.username },
        { header: t('admin.email'), cell: (u) => u.email },
        { header: t('admin.registered'), cell: (u) => formatTimestamp(u.created_at, language) },
        {
          header: t('admin.actions'),
          cell: (u) => (
            <RowActions>
              <button type="button" className="button button-primary button-small" onClick={() => onApprove(u)}>
                {t('admin.approve')}
              </button>
              <button type="button" className="button button-danger button-small" onClick={() => onDecline(u)}>
                {t('admin.decline')}
              </button>
            </RowActions>
          ),
        },
      ]}
    />
  );
}
