import { eurosToCents, type Language } from '@fankurve/shared';
import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useUser } from '../../session/session.js';
import { ConfirmDialog, Modal } from '../../ui/Dialog.js';
import { Field } from '../../ui/Field.js';
import { toastError, toastSuccess } from '../../ui/toast.js';
import { AdminRequired } from '../../ui/AdminRequired.js';
import { usePendingTasks } from './AdminTasksPage.js';
import {
  approveUser,
  createUser,
  deleteUser,
  fetchUsers,
  tasksChanged,
  type AdminUser,
  type PendingUser,
} from '../../api/admin.js';
import { ErasedAccountsSection } from './ErasedAccountsSection.js';
import { failureText, formatTimestamp } from './format.js';
import { MemberImportSection } from './MemberImportSection.js';
import { PendingRegistrationsTable } from './PendingRegistrationsTable.js';
import { TaskSection } from './TaskSection.js';
import './admin.css';
import { debtText } from '../../ui/money.js';
import { NeedsConnection } from '../../ui/NeedsConnection.js';
import { RowTable, TableScroll } from '../../ui/RowTable.js';

/**
 * /users (admin): pending registrations, the user table with debts, create users and erase them
 * (docs/architecture.md, Erasure and retention), the erased accounts apart below.
 */
export function UsersPage() {
  const { t } = useTranslation();
  return (
    <NeedsConnection title={t('admin.usersTitle')}>
      <UsersPageOnline />
    </NeedsConnection>
  );
}

function UsersPageOnline() {
  const { t, i18n } = useTranslation();
  const me = useUser();
  const language = (i18n.language === 'en' ? 'en' : 'de') as Language;
  const isAdmin = me.scope === 'admin';
  const titleId = useId();
  const { tasks, reload: reloadPending } = usePendingTasks(isAdmin);
  const [users, setUsers] = useState<AdminUser[] | null>(null);
  const [confirm, setConfirm] = useState<{ kind: 'approve' | 'decline' | 'delete'; user: PendingUser | AdminUser } | null>(null);
  const [busy, setBusy] = useState(false);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<{ username: string; password: string } | null>(null);
  // Counts the erasures done here: the erased accounts' list loads again after each.
  const [erasures, setErasures] = useState(0);

  const [loadFailed, setLoadFailed] = useState(false);

  const load = useCallback(async () => {
    try {
      setUsers(await fetchUsers());
      setLoadFailed(false);
    } catch (error) {
      console.error(error);
      setLoadFailed(true);
    }
  }, []);
  useEffect(() => {
    if (isAdmin) void load();
  }, [isAdmin, load]);

  if (!isAdmin) return <AdminRequired />;

  // Deleting a member erases them: what goes at once, what the books keep (docs/product.md, Data protection).
  const confirmWarning = (kind: 'approve' | 'decline' | 'delete') =>
    kind === 'approve' ? '' : kind === 'decline' ? t('admin.confirm.declineWarning') : t('erasure.admin.deleteWarning');

  const run = async () => {
    if (!confirm) return;
    setBusy(true);
    try {
      if (confirm.kind === 'approve') await approveUser(confirm.user.id);
      else await deleteUser(confirm.user.id);
      toastSuccess(
        t(
          confirm.kind === 'approve'
            ? 'admin.done.approve'
            : confirm.kind === 'decline'
              ? 'admin.done.decline'
              : 'admin.done.delete',
        ),
      );
      if (confirm.kind === 'delete') setErasures((n) => n + 1);
      setConfirm(null);
    } catch (error) {
      toastError(failureText(error, t(`admin.failed.${confirm.kind}`)));
    } finally {
      setBusy(false);
      tasksChanged();
      void reloadPending();
      void load();
    }
  };

  return (
    <section className="page admin-page" aria-labelledby={titleId}>
      <h1 id={titleId}>{t('admin.usersTitle')}</h1>
      <div className="users-actions">
        <button type="button" className="button button-primary" onClick={() => setCreating(true)}>
          {t('admin.createUser')}
        </button>
        {/* Registration links with a QR code (docs/architecture.md, Invites). */}
        <Link to="/admin/invites" className="button button-secondary">
          {t('invites.admin.link')}
        </Link>
      </div>
      {tasks && tasks.users.length > 0 ? (
        <TaskSection title={t('admin.pendingRegistrations')} rows={tasks.users}>
          {(pending) => (
            <PendingRegistrationsTable
              users={pending}
              language={language}
              onApprove={(user) => setConfirm({ kind: 'approve', user })}
              onDecline={(user) => setConfirm({ kind: 'decline', user })}
            />
          )}
        </TaskSection>
      ) : null}
      <h2>{t('admin.allUsers')}</h2>
      {!users ? (
        loadFailed ? (
          <p className="notice notice-warning" role="alert">
            {t('admin.failed.loadUsers')}
          </p>
        ) : (
          <p className="muted">{t('common.loading')}</p>
        )
      ) : (
        <TableScroll>
          <RowTable
            className="users-table"
            rows={users}
            columns={[
              { header: t('admin.username'), cell: (u) => <Link to={`/users/${u.id}`}>{u.username}</Link> },
              { header: t('admin.email'), cell: (u) => u.email },
              { header: t('admin.scope'), cell: (u) => t(`admin.scopes.${u.scope}`) },
              { header: t('admin.language'), cell: (u) => u.language.toUpperCase() },
              { header: t('admin.unpaidCount'), num: true, cell: (u) => u.unpaid_count },
              {
                header: t('admin.totalDebt'),
                num: true,
                cell: (u) => debtText(eurosToCents(u.total_debt), u.open_price_count, language, t),
              },
              { header: t('admin.created'), cell: (u) => formatTimestamp(u.created_at, language) },
              {
                header: t('admin.actions'),
                cell: (u) =>
                  u.id === me.id ? null : (
                    <button
                      type="button"
                      className="button button-danger-ghost button-small"
                      onClick={() => setConfirm({ kind: 'delete', user: u })}
                    >
                      {t('admin.delete')}
                    </button>
                  ),
              },
            ]}
          />
        </TableScroll>
      )}
      {/* Below the table once it is there: the table arriving would push them down (layout shift). */}
      {users || loadFailed ? (
        <>
          <ErasedAccountsSection language={language} version={erasures} />
          <MemberImportSection onCreated={() => void load()} />
        </>
      ) : null}
      {confirm ? (
        <ConfirmDialog
          title={t(`admin.confirm.${confirm.kind}Title`)}
          message={`${t(`admin.confirm.${confirm.kind}Question`, { username: confirm.user.username, email: confirm.user.email, date: formatTimestamp(confirm.user.created_at, language) })} ${confirmWarning(confirm.kind)}`.trim()}
          confirmLabel={t(`admin.confirm.${confirm.kind}`)}
          busy={busy}
          onConfirm={() => void run()}
          onCancel={() => setConfirm(null)}
        />
      ) : null}
      {creating ? (
        <CreateUserDialog
          onClose={() => setCreating(false)}
          onCreated={(username, password) => {
            setCreating(false);
            setCreated({ username, password });
            void load();
          }}
        />
      ) : null}
      {created ? (
        <Modal title={t('admin.createdTitle')} onClose={() => setCreated(null)} size="small">
          <p>{t('admin.createdText', { username: created.username })}</p>
          <p className="admin-password" data-testid="temporary-password">
            {created.password}
          </p>
          <div className="modal-actions">
            <button type="button" className="button button-primary" onClick={() => setCreated(null)}>
              {t('common.close')}
            </button>
          </div>
        </Modal>
      ) : null}
    </section>
  );
}

function CreateUserDialog({
  onClose,
  onCreated,
}: {
  onClose: () => void;
  onCreated: (username: string, password: string) => void;
}) {
  const { t } = useTranslation();
  const [username, setUsername] = useState('');
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!username.trim() || !email.trim()) {
      setError(t('admin.usernameEmailRequired'));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const answer = await createUser({ username, email });
      toastSuccess(t('serverMessages.userCreated'));
      onCreated(answer.user.username, answer.temporaryPassword);
    } catch (failure) {
      setError(failureText(failure, t('admin.failed.create')));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal title={t('admin.createUser')} onClose={onClose} size="small" busy={busy}>
      <form className="admin-form" onSubmit={(event) => void submit(event)} noValidate>
        <Field
          label={t('admin.username')}
          value={username}
          onChange={(e) => setUsername(e.target.value)}
          required
          autoComplete="off"
        />
        <Field
          label={t('admin.email')}
          type="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          required
          autoComplete="off"
        />
        {error ? (
          <p className="form-error" role="alert">
            {error}
          </p>
        ) : null}
        <div className="modal-actions">
          <button type="button" className="button button-secondary" onClick={onClose} disabled={busy}>
            {t('common.cancel')}
          </button>
          <button type="submit" className="button button-primary" disabled={busy}>
            {t('admin.create')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
