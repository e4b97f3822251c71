import { AUDIT_KINDS, type AuditKind } from '@fankurve/shared/constants';
import { auditChanges, auditCsv, auditValueText } from '@fankurve/shared/rules/auditLog';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { fetchAudit, fetchWholeAudit, type AuditEntry } from '../../api/audit.js';
import { fetchErasedUsers, fetchUsers } from '../../api/admin.js';
import { formatInstant } from '../../i18n/dates.js';
import { currentLanguage, errorText } from '../../i18n/index.js';
import { isFormerMember, shownName } from '../../i18n/memberNames.js';
import { useUser } from '../../session/session.js';
import { AdminRequired } from '../../ui/AdminRequired.js';
import { downloadText } from '../../ui/download.js';
import { Loading } from '../../ui/Loading.js';
import { NeedsConnection } from '../../ui/NeedsConnection.js';
import { toastError } from '../../ui/toast.js';
import './auditLog.css';

/**
 * /admin/log (admin, online; docs/product.md, Admin log; docs/architecture.md, Audit log): every
 * admin action on money, tickets, people and the club's settings, newest first — when, who, what,
 * for whom, and each changed field before → after. Narrowed by member, kind and event (the address
 * keeps the filters: `?user_id=…&kind=…&event_id=…`, so a member's or an event's page links here);
 * "more" reads the next page; the CSV holds every entry the filters select.
 */
export function AuditLogPage() {
  const user = useUser();
  const { t } = useTranslation();
  if (user.scope !== 'admin') return <AdminRequired />;
  return (
    <NeedsConnection title={t('audit.title')}>
      <AuditLog />
    </NeedsConnection>
  );
}

type Filters = { user_id?: string; kind?: AuditKind; event_id?: string };

function AuditLog() {
  const { t } = useTranslation();
  const titleId = useId();
  const [params, setParams] = useSearchParams();
  const filters: Filters = {
    user_id: params.get('user_id') || undefined,
    kind: (AUDIT_KINDS as readonly string[]).includes(params.get('kind') ?? '') ? (params.get('kind') as AuditKind) : undefined,
    event_id: params.get('event_id') || undefined,
  };
  const filterKey = `${filters.user_id ?? ''}|${filters.kind ?? ''}|${filters.event_id ?? ''}`;
  const [entries, setEntries] = useState<AuditEntry[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const members = useMembers();

  useEffect(() => {
    const controller = new AbortController();
    setEntries(null);
    fetchAudit(filters, controller.signal).then(
      (page) => {
        setEntries(page.entries);
        setNext(page.next);
        setFailure(null);
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setFailure(errorText(error));
      },
    );
    return () => controller.abort();
    // The filters are the address's: their text is the dependency.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [filterKey]);

  const setFilter = (name: keyof Filters, value: string) => {
    const changed = new URLSearchParams(params);
    if (value) changed.set(name, value);
    else changed.delete(name);
    setParams(changed, { replace: true });
  };

  const more = async () => {
    if (!next) return;
    setBusy(true);
    try {
      const page = await fetchAudit({ ...filters, before: next });
      setEntries([...(entries ?? []), ...page.entries]);
      setNext(page.next);
    } catch (error) {
      toastError(errorText(error));
    } finally {
      setBusy(false);
    }
  };

  const download = async () => {
    setBusy(true);
    try {
      const all = await fetchWholeAudit(filters);
      const columns = ['at', 'admin', 'kind', 'action', 'member', 'event', 'entity', 'changes'] as const;
      const header = columns.map((column) => t(`audit.csv.${column}`));
      downloadText(`${t('audit.csv.file')}.csv`, auditCsv(all, header));
    } catch (error) {
      toastError(errorText(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="page audit-log" aria-labelledby={titleId}>
      <h1 id={titleId}>{t('audit.title')}</h1>
      <p className="muted">{t('audit.hint')}</p>
      <div className="audit-filters">
        <label>
          {t('audit.member')}
          <select value={filters.user_id ?? ''} onChange={(event) => setFilter('user_id', event.target.value)}>
            <option value="">{t('audit.everyone')}</option>
            {(members ?? []).map((member) => (
              <option key={member.id} value={member.id}>
                {shownName(member.username)}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('audit.kind')}
          <select value={filters.kind ?? ''} onChange={(event) => setFilter('kind', event.target.value)}>
            <option value="">{t('audit.allKinds')}</option>
            {AUDIT_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {t(`audit.kinds.${kind}`)}
              </option>
            ))}
          </select>
        </label>
        {filters.event_id ? (
          <p className="audit-event-filter">
            {t('audit.oneEvent')}{' '}
            <button type="button" className="button button-ghost button-small" onClick={() => setFilter('event_id', '')}>
              {t('audit.allEvents')}
            </button>
          </p>
        ) : null}
        <button type="button" className="button button-secondary" disabled={busy || !entries?.length} onClick={download}>
          {t('audit.download')}
        </button>
      </div>
      {failure ? (
        <p className="form-error" role="alert">
          {failure}
        </p>
      ) : !entries ? (
        <Loading />
      ) : entries.length === 0 ? (
        <p className="muted">{t('audit.empty')}</p>
      ) : (
        <>
          <ol className="plain-list audit-entries" data-testid="audit-entries">
            {entries.map((entry) => (
              <AuditItem key={entry.id} entry={entry} onEvent={(eventId) => setFilter('event_id', eventId)} />
            ))}
          </ol>
          {next ? (
            <button type="button" className="button button-secondary" disabled={busy} onClick={more}>
              {t('audit.more')}
            </button>
          ) : null}
        </>
      )}
    </section>
  );
}

/**
 * The members for the filter (the admin's user list) by name, then the erased accounts, newest
 * first: the log keeps what admins did to them.
 */
function useMembers(): { id: string; username: string }[] | null {
  const [members, setMembers] = useState<{ id: string; username: string }[] | null>(null);
  useEffect(() => {
    let live = true;
    Promise.all([fetchUsers(), fetchErasedUsers().catch(() => [])]).then(
      ([users, erased]) =>
        live &&
        setMembers([
          ...[...users].sort((a, b) => a.username.localeCompare(b.username, 'de', { sensitivity: 'base' })),
          ...erased.map((user) => ({ id: user.id, username: user.name })),
        ]),
      () => live && setMembers([]),
    );
    return () => {
      live = false;
    };
  }, []);
  return members;
}

function AuditItem({ entry, onEvent }: { entry: AuditEntry; onEvent(eventId: string): void }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  // i18next reads dots as nesting: `ledger.entry` is the text `ledger_entry`; an action without a text shows as it is.
  const actionKey = entry.action.replace(/\./g, '_');
  const actions: Record<string, string> = t('audit.actions', { returnObjects: true });
  // A field as people call it; one without a name shows as stored.
  const fields: Record<string, string> = t('audit.fields', { returnObjects: true });
  const changes = auditChanges(entry.before, entry.after);
  const actorName = shownName(entry.actor_name);
  const username = shownName(entry.username);
  return (
    <li className="card audit-entry" data-action={entry.action}>
      <p className="audit-entry-head">
        <time dateTime={entry.at}>{formatInstant(entry.at, language)}</time> ·{' '}
        <strong>{actions[actionKey] ?? entry.action}</strong> · <span className="badge">{t(`audit.kinds.${entry.kind}`)}</span>
      </p>
      <p className="audit-entry-who">
        {t('audit.by', { name: actorName ?? (entry.actor_id === 'system' ? t('audit.system') : t('audit.former')) })}
        {entry.user_id ? (
          <>
            {' · '}
            {/* An erased account has no page any more. */}
            {username === null || isFormerMember(entry.username) ? (
              (username ?? t('audit.former'))
            ) : (
              <Link to={`/users/${entry.user_id}`}>{username}</Link>
            )}
          </>
        ) : null}
        {entry.event_id ? (
          <>
            {' · '}
            <button type="button" className="link-button" onClick={() => onEvent(entry.event_id!)}>
              {entry.event_title ?? entry.event_id}
            </button>
          </>
        ) : null}
      </p>
      {changes.length > 0 ? (
        <dl className="audit-changes">
          {changes.map((change) => (
            <div key={change.field}>
              <dt title={change.field}>{fields[change.field] ?? change.field}</dt>
              <dd>
                {auditValueText(change.field, change.before)} → {auditValueText(change.field, change.after)}
              </dd>
            </div>
          ))}
        </dl>
      ) : null}
    </li>
  );
}
