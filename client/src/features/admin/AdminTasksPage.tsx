import { eurosToCents, formatMoney, type Language, type PendingComment } from '@fankurve/shared';
import { useCallback, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useUser } from '../../session/session.js';
import { i18next } from '../../i18n/index.js';
import { shownName } from '../../i18n/memberNames.js';
import { Modal } from '../../ui/Dialog.js';
import { toastError, toastSuccess } from '../../ui/toast.js';
import { AdminRequired } from '../../ui/AdminRequired.js';
import { formatEventDate } from '../../i18n/eventDates.js';
import {
  acceptPaid,
  acceptReceived,
  approveUser,
  deleteUser,
  fetchPaidRequests,
  fetchPendingComments,
  fetchPendingUsers,
  fetchReceivedRequests,
  tasksChanged,
  type PendingRequest,
  type PendingUser,
} from '../../api/admin.js';
import { failureText, formatTimestamp, requestPriceText } from './format.js';
import { PendingRegistrationsTable } from './PendingRegistrationsTable.js';
import { PendingCommentsTable } from './PendingCommentsTable.js';
import { LegalTextsReminder } from './LegalTextsReminder.js';
import './admin.css';
import { NeedsConnection } from '../../ui/NeedsConnection.js';
import { RowTable } from '../../ui/RowTable.js';
import { TaskSection } from './TaskSection.js';

interface Tasks {
  users: PendingUser[];
  paid: PendingRequest[];
  received: PendingRequest[];
  comments: PendingComment[];
}

type Pending =
  | { kind: 'approve'; user: PendingUser }
  | { kind: 'decline'; user: PendingUser }
  | { kind: 'paid'; request: PendingRequest }
  | { kind: 'received'; request: PendingRequest };

/** The requester as shown: the member, or a guest with the member who brought them. */
export function requesterName(request: PendingRequest): string {
  if (request.username) return shownName(request.username);
  return i18next.t('admin.guestOf', { guest: request.guest_name ?? '', member: shownName(request.brought_by_username) ?? '' });
}

/** Loads the three lists of pending tasks; reloads when the server announces a change. */
export function usePendingTasks(enabled: boolean) {
  const [tasks, setTasks] = useState<Tasks | null>(null);
  const [failed, setFailed] = useState(false);
  const reload = useCallback(async () => {
    try {
      const [users, paid, received, comments] = await Promise.all([
        fetchPendingUsers(),
        fetchPaidRequests(),
        fetchReceivedRequests(),
        fetchPendingComments(),
      ]);
      setTasks({ users, paid, received, comments });
      setFailed(false);
    } catch (error) {
      console.error(error);
      setFailed(true);
    }
  }, []);
  useEffect(() => {
    if (!enabled) return;
    void reload();
    let stopped = false;
    let stop: (() => void) | null = null;
    void import('../../data/index.js').then((data) => {
      if (!stopped) stop = data.onServerChange(() => void reload());
    });
    return () => {
      stopped = true;
      stop?.();
    };
  }, [enabled, reload]);
  return { tasks, failed, reload };
}

/** /admin/tasks: registrations to approve, paid and received requests to accept, comments to answer. */
export function AdminTasksPage() {
  const { t } = useTranslation();
  return (
    <NeedsConnection title={t('admin.tasksTitle')}>
      <AdminTasksPageOnline />
    </NeedsConnection>
  );
}

function AdminTasksPageOnline() {
  const { t, i18n } = useTranslation();
  const user = useUser();
  const language = (i18n.language === 'en' ? 'en' : 'de') as Language;
  const titleId = useId();
  const isAdmin = user.scope === 'admin';
  const { tasks, failed, reload } = usePendingTasks(isAdmin);
  const [pending, setPending] = useState<Pending | null>(null);
  const [busy, setBusy] = useState(false);

  if (!isAdmin) return <AdminRequired />;

  const total = tasks ? tasks.users.length + tasks.paid.length + tasks.received.length + tasks.comments.length : 0;
  const eventText = (r: PendingRequest) => `${r.event_title} (${formatEventDate(r.event_date, language)})`;

  const confirm = async () => {
    if (!pending) return;
    setBusy(true);
    try {
      if (pending.kind === 'approve') await approveUser(pending.user.id);
      else if (pending.kind === 'decline') await deleteUser(pending.user.id);
      else if (pending.kind === 'paid') await acceptPaid(pending.request.id);
      else await acceptReceived(pending.request.id);
      toastSuccess(t(`admin.done.${pending.kind}`));
      setPending(null);
    } catch (error) {
      toastError(failureText(error, t(`admin.failed.${pending.kind}`)));
    } finally {
      setBusy(false);
      tasksChanged();
      void reload();
    }
  };

  return (
    <section className="page admin-page" aria-labelledby={titleId}>
      <h1 id={titleId}>{t('admin.tasksTitle')}</h1>
      <LegalTextsReminder />
      <p className="admin-log-link">
        <Link to="/admin/log">{t('audit.link')}</Link>
      </p>
      {failed && !tasks ? (
        <p className="notice notice-warning" role="alert">
          {t('admin.failed.load')}
        </p>
      ) : null}
      {!tasks ? (
        failed ? null : (
          <p className="muted">{t('common.loading')}</p>
        )
      ) : (
        <>
          <p className="admin-total">{t('admin.totalPending', { count: total })}</p>
          {total === 0 ? (
            <p className="notice notice-success" role="status">
              {t('admin.allDone')}
            </p>
          ) : null}
          {tasks.users.length > 0 ? (
            <TaskSection title={t('admin.pendingRegistrations')} rows={tasks.users}>
              {(users) => (
                <PendingRegistrationsTable
                  users={users}
                  language={language}
                  onApprove={(user) => setPending({ kind: 'approve', user })}
                  onDecline={(user) => setPending({ kind: 'decline', user })}
                />
              )}
            </TaskSection>
          ) : null}
          {tasks.paid.length > 0 ? (
            <TaskSection title={t('admin.pendingPaid')} rows={tasks.paid}>
              {(requests) => (
                <RequestTable
                  requests={requests}
                  withPrice
                  language={language}
                  onAccept={(request) => setPending({ kind: 'paid', request })}
                />
              )}
            </TaskSection>
          ) : null}
          {tasks.received.length > 0 ? (
            <TaskSection title={t('admin.pendingReceived')} rows={tasks.received}>
              {(requests) => (
                <RequestTable
                  requests={requests}
                  language={language}
                  onAccept={(request) => setPending({ kind: 'received', request })}
                />
              )}
            </TaskSection>
          ) : null}
          {tasks.comments.length > 0 ? (
            <TaskSection title={t('comments.pending.title')} rows={tasks.comments}>
              {(comments) => <PendingCommentsTable comments={comments} language={language} />}
            </TaskSection>
          ) : null}
        </>
      )}
      {pending ? (
        <Modal title={t(`admin.confirm.${pending.kind}Title`)} onClose={() => setPending(null)} size="small" busy={busy}>
          <dl className="admin-dialog-facts">
            {'user' in pending ? (
              <>
                <dt>{t('admin.username')}</dt>
                <dd>{pending.user.username}</dd>
                <dt>{t('admin.email')}</dt>
                <dd>{pending.user.email}</dd>
                <dt>{t('admin.registered')}</dt>
                <dd>{formatTimestamp(pending.user.created_at, language)}</dd>
              </>
            ) : (
              <>
                <dt>{t('admin.username')}</dt>
                <dd>{requesterName(pending.request)}</dd>
                <dt>{t('admin.event')}</dt>
                <dd>{eventText(pending.request)}</dd>
                <dt>{t('admin.requested')}</dt>
                <dd>{formatTimestamp(pending.request.request_date, language)}</dd>
                {pending.kind === 'paid' ? (
                  <>
                    <dt>{t('admin.price')}</dt>
                    <dd>{requestPriceText(pending.request, language)}</dd>
                    {pending.request.open_amount !== null ? (
                      <>
                        <dt>{t('admin.openAmount')}</dt>
                        <dd data-testid="paid-open-amount">{formatMoney(eurosToCents(pending.request.open_amount), language)}</dd>
                      </>
                    ) : null}
                  </>
                ) : null}
              </>
            )}
          </dl>
          {pending.kind === 'decline' ? (
            <p className="notice notice-warning" role="alert">
              {t('admin.confirm.declineWarning')}
            </p>
          ) : null}
          <div className="modal-actions">
            <button type="button" className="button button-secondary" onClick={() => setPending(null)} disabled={busy}>
              {t('common.cancel')}
            </button>
            <button
              type="button"
              className={pending.kind === 'decline' ? 'button button-danger' : 'button button-primary'}
              onClick={() => void confirm()}
              disabled={busy}
            >
              {t(`admin.confirm.${pending.kind}`)}
            </button>
          </div>
        </Modal>
      ) : null}
    </section>
  );
}

function RequestTable({
  requests,
  withPrice = false,
  language,
  onAccept,
}: {
  requests: readonly PendingRequest[];
  withPrice?: boolean;
  language: Language;
  onAccept: (request: PendingRequest) => void;
}) {
  const { t } = useTranslation();
  return (
    <RowTable
      rows={requests}
      columns={[
        { header: t('admin.username'), cell: requesterName },
        {
          header: t('admin.event'),
          cell: (r) => (
            <>
              {r.event_title}
              <br />
              <span className="muted">{formatEventDate(r.event_date, language)}</span>
            </>
          ),
        },
        withPrice && { header: t('admin.price'), num: true, cell: (r) => requestPriceText(r, language) },
        { header: t('admin.requested'), cell: (r) => formatTimestamp(r.request_date, language) },
        {
          header: t('admin.actions'),
          cell: (r) => (
            <button type="button" className="button button-primary button-small" onClick={() => onAccept(r)}>
              {t('admin.accept')}
            </button>
          ),
        },
      ]}
    />
  );
}
