import type { Language } from '@fankurve/shared/constants';
import { INVITE_MAX_USES, INVITE_VALID_MAX_DAYS, checkInviteMaxUses, inviteState } from '@fankurve/shared/rules/invites';
import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { createInvite, fetchInvites, revokeInvite, type Invite } from '../../api/invites.js';
import { messageText } from '../../i18n/index.js';
import { useUser } from '../../session/session.js';
import { AdminRequired } from '../../ui/AdminRequired.js';
import { ConfirmDialog } from '../../ui/Dialog.js';
import { Field, FormError } from '../../ui/Field.js';
import { NeedsConnection } from '../../ui/NeedsConnection.js';
import { useQrPath } from '../../ui/useQrPath.js';
import { toastError, toastSuccess } from '../../ui/toast.js';
import { failureText, formatTimestamp } from './format.js';
import './admin.css';
import './invites.css';

/** A new invite runs two weeks unless the admin picks another last day. */
const DEFAULT_DAYS = 14;
const DAY_MS = 24 * 60 * 60 * 1000;

/** A day on this device as the date input writes it (`YYYY-MM-DD`). */
function localDay(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** The end of a last day (inclusive) on this device, as the ISO instant the server takes. */
const endOfDay = (day: string) => new Date(`${day}T23:59:59`).toISOString();

/** /admin/invites (docs/product.md, Screens): the admin's registration links with their QR codes; linked from /users. */
export function InvitesPage() {
  const { t } = useTranslation();
  return (
    <NeedsConnection title={t('invites.admin.title')}>
      <InvitesPageOnline />
    </NeedsConnection>
  );
}

function InvitesPageOnline() {
  const { t, i18n } = useTranslation();
  const user = useUser();
  const language = (i18n.language === 'en' ? 'en' : 'de') as Language;
  const titleId = useId();
  const isAdmin = user.scope === 'admin';
  const [invites, setInvites] = useState<Invite[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [fresh, setFresh] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<Invite | null>(null);
  const [busy, setBusy] = useState(false);

  const load = useCallback(async () => {
    try {
      setInvites(await fetchInvites());
      setFailed(false);
    } catch (error) {
      console.error(error);
      setFailed(true);
    }
  }, []);
  useEffect(() => {
    if (isAdmin) void load();
  }, [isAdmin, load]);

  if (!isAdmin) return <AdminRequired />;

  async function revoke() {
    if (!revoking) return;
    setBusy(true);
    try {
      await revokeInvite(revoking.id);
      toastSuccess(messageText('inviteWithdrawn'));
      setRevoking(null);
    } catch (error) {
      toastError(failureText(error, t('invites.admin.revokeFailed')));
    } finally {
      setBusy(false);
      void load();
    }
  }

  return (
    <section className="page admin-page invites-page" aria-labelledby={titleId}>
      <h1 id={titleId}>{t('invites.admin.title')}</h1>
      <p className="muted">{t('invites.admin.intro')}</p>
      <CreateInviteForm
        onCreated={(invite) => {
          setFresh(invite.id);
          setInvites((current) => [invite, ...(current ?? []).filter((one) => one.id !== invite.id)]);
        }}
      />
      <h2>{t('invites.admin.listTitle')}</h2>
      {failed && !invites ? (
        <p className="notice notice-warning" role="alert">
          {t('invites.admin.loadFailed')}
        </p>
      ) : null}
      {!invites ? (
        failed ? null : (
          <p className="muted">{t('common.loading')}</p>
        )
      ) : invites.length === 0 ? (
        <p className="muted">{t('invites.admin.none')}</p>
      ) : (
        <ul className="invite-list">
          {invites.map((invite) => (
            <InviteCard
              key={invite.id}
              invite={invite}
              language={language}
              qrOpen={invite.id === fresh}
              onRevoke={() => setRevoking(invite)}
            />
          ))}
        </ul>
      )}
      {revoking ? (
        <ConfirmDialog
          title={t('invites.admin.revokeTitle')}
          message={t('invites.admin.revokeText')}
          confirmLabel={t('invites.admin.revoke')}
          busy={busy}
          onConfirm={() => void revoke()}
          onCancel={() => setRevoking(null)}
        />
      ) : null}
    </section>
  );
}

/** The new invite's last day, its number of registrations and whether they are approved at once. */
function CreateInviteForm({ onCreated }: { onCreated: (invite: Invite) => void }) {
  const { t } = useTranslation();
  const headingId = useId();
  const today = localDay(new Date());
  const lastPossible = localDay(new Date(Date.now() + (INVITE_VALID_MAX_DAYS - 1) * DAY_MS));
  const [day, setDay] = useState(() => localDay(new Date(Date.now() + DEFAULT_DAYS * DAY_MS)));
  const [maxUses, setMaxUses] = useState('10');
  const [approve, setApprove] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [usesError, setUsesError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    setError(null);
    const uses = checkInviteMaxUses(maxUses);
    if (!uses.ok) {
      setUsesError(messageText(uses.code));
      return;
    }
    setUsesError(null);
    if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) {
      setError(messageText('inviteExpiryInvalid'));
      return;
    }
    setBusy(true);
    try {
      const invite = await createInvite({ expires_at: endOfDay(day), max_uses: uses.value, approve });
      toastSuccess(messageText('inviteCreated'));
      onCreated(invite);
    } catch (failure) {
      setError(failureText(failure, t('invites.admin.createFailed')));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="card form invite-form" aria-labelledby={headingId} noValidate onSubmit={(event) => void submit(event)}>
      <h2 id={headingId}>{t('invites.admin.newTitle')}</h2>
      <div className="field-row field-row-end">
        <Field
          label={t('invites.admin.validUntil')}
          type="date"
          name="expires"
          min={today}
          max={lastPossible}
          required
          value={day}
          onChange={(event) => setDay(event.target.value)}
        />
        <Field
          label={t('invites.admin.maxUses')}
          hint={t('invites.admin.maxUsesHint')}
          type="number"
          name="max_uses"
          inputMode="numeric"
          min={1}
          max={INVITE_MAX_USES}
          step={1}
          required
          value={maxUses}
          error={usesError ?? undefined}
          onChange={(event) => setMaxUses(event.target.value)}
        />
      </div>
      <label className="check">
        <input type="checkbox" name="approve" checked={approve} onChange={(event) => setApprove(event.target.checked)} />
        <span>
          {t('invites.admin.approve')}
          <small className="field-hint">{t('invites.admin.approveHint')}</small>
        </span>
      </label>
      <FormError message={error} />
      <div>
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? t('invites.admin.creating') : t('invites.admin.create')}
        </button>
      </div>
    </form>
  );
}

const STATE_BADGE = { open: 'invite-badge-open', expired: 'badge-muted', usedUp: 'badge-muted', revoked: 'badge-red' } as const;

/** One invite: its state, end, uses and kind; the link with a copy button and its QR code; who came through it; withdraw. */
function InviteCard({
  invite,
  language,
  qrOpen,
  onRevoke,
}: {
  invite: Invite;
  language: Language;
  qrOpen: boolean;
  onRevoke: () => void;
}) {
  const { t } = useTranslation();
  const linkId = useId();
  const state = inviteState(invite, new Date().toISOString());
  const [showQr, setShowQr] = useState(qrOpen);
  const code = useQrPath(showQr ? invite.url : null);
  const until = formatTimestamp(invite.expires_at, language);

  async function copy() {
    try {
      await navigator.clipboard.writeText(invite.url);
      toastSuccess(t('invites.admin.copied'));
    } catch {
      toastError(t('invites.admin.copyFailed'));
    }
  }

  return (
    <li className="card invite-card" data-testid="invite-card" data-state={state}>
      <div className="invite-head">
        <span className={`badge ${STATE_BADGE[state]}`}>{t(`invites.admin.state.${state}`)}</span>
        <span>{t('invites.admin.expires', { date: until })}</span>
      </div>
      <p className="invite-facts">
        <span>{t('invites.admin.uses', { uses: invite.uses, max: invite.max_uses })}</span>
        <span>{invite.approve ? t('invites.admin.approves') : t('invites.admin.waits')}</span>
        <span className="muted">{t('invites.admin.createdOn', { date: formatTimestamp(invite.created_at, language) })}</span>
        {invite.revoked_at ? (
          <span className="muted">{t('invites.admin.revokedOn', { date: formatTimestamp(invite.revoked_at, language) })}</span>
        ) : null}
      </p>
      {state === 'open' ? (
        <>
          <div className="invite-link">
            <label htmlFor={linkId} className="sr-only">
              {t('invites.admin.linkLabel')}
            </label>
            <input id={linkId} readOnly value={invite.url} onFocus={(event) => event.target.select()} data-testid="invite-url" />
            <button type="button" className="button button-secondary button-small" onClick={() => void copy()}>
              {t('invites.admin.copy')}
            </button>
            <button
              type="button"
              className="button button-ghost button-small"
              aria-expanded={showQr}
              onClick={() => setShowQr((open) => !open)}
            >
              {showQr ? t('invites.admin.hideQr') : t('invites.admin.showQr')}
            </button>
          </div>
          {code ? (
            <svg
              className="invite-qr"
              viewBox={`0 0 ${code.size} ${code.size}`}
              role="img"
              aria-label={t('invites.admin.qrLabel', { date: until })}
              shapeRendering="crispEdges"
              data-testid="invite-qr"
            >
              <rect width={code.size} height={code.size} fill="#fff" />
              <path d={code.path} fill="#000" />
            </svg>
          ) : null}
        </>
      ) : null}
      <h3 className="invite-members-title">{t('invites.admin.members')}</h3>
      {invite.members.length === 0 ? (
        <p className="muted">{t('invites.admin.noMembers')}</p>
      ) : (
        <ul className="invite-members" data-testid="invite-members">
          {invite.members.map((member) => (
            <li key={member.user_id}>
              <Link to={`/users/${member.user_id}`}>{member.username}</Link>{' '}
              <span className="muted">{formatTimestamp(member.joined_at, language)}</span>
            </li>
          ))}
        </ul>
      )}
      {invite.revoked_at === null ? (
        <div className="invite-actions">
          <button type="button" className="button button-danger-ghost button-small" onClick={onRevoke}>
            {t('invites.admin.revoke')}
          </button>
        </div>
      ) : null}
    </li>
  );
}
