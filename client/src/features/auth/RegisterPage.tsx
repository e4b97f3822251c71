import { checkNewPassword } from '@fankurve/shared/rules/password';
import { checkUsername } from '@fankurve/shared/rules/usernames';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { register } from '../../api/auth.js';
import { isApiError } from '../../api/client.js';
import { checkInvite } from '../../api/invites.js';
import { currentLanguage, errorText, messageText } from '../../i18n/index.js';
import { signIn } from '../../session/session.js';
import { useSiteConfig } from '../../session/siteConfig.js';
import { AuthForm, BackToLogin, EmailField, PasswordField, UsernameField, useSend } from './AuthForm.js';

/** What the page knows of the invite in its address (`?invite=<token>`; docs/architecture.md, Invites). */
type InviteCheck =
  | { state: 'none' }
  | { state: 'checking' }
  | { state: 'open'; approve: boolean }
  /** Refused by the server (expired, used up, withdrawn, unknown, too many guesses): said, and no form with it. */
  | { state: 'refused'; text: string }
  /** Not checked (no connection): the form stays, the registration sends the invite and hears the answer. */
  | { state: 'unchecked' };

/** The invite of the address, checked with the server before the form is filled. */
function useInvite(token: string | null): InviteCheck {
  const [check, setCheck] = useState<InviteCheck>(token ? { state: 'checking' } : { state: 'none' });
  useEffect(() => {
    if (!token) return;
    let stopped = false;
    checkInvite(token).then(
      (invite) => !stopped && setCheck({ state: 'open', approve: invite.approve }),
      (failure: unknown) => {
        if (stopped) return;
        const refused = isApiError(failure) && !failure.offline && failure.status >= 400 && failure.status < 500;
        setCheck(refused ? { state: 'refused', text: errorText(failure) } : { state: 'unchecked' });
      },
    );
    return () => {
      stopped = true;
    };
  }, [token]);
  return check;
}

/**
 * /register: username, email and password; usually ends waiting for an admin's approval. Opened from
 * an invite link it says so first (or why the link no longer works), and an invite that approves at
 * once signs the new member in straight away (the guard then opens /events).
 */
export function RegisterPage() {
  const [params] = useSearchParams();
  const token = params.get('invite') || null;
  // Another address (the link "without an invite") starts afresh.
  return <Registration key={token ?? ''} token={token} />;
}

function Registration({ token }: { token: string | null }) {
  const { t } = useTranslation();
  const config = useSiteConfig();
  const invite = useInvite(token);
  const [username, setUsername] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [pending, setPending] = useState(false);
  const { busy, error, setError, send } = useSend();

  function submit() {
    const name = checkUsername(username);
    if (!name.ok) {
      setError(messageText(name.code));
      return;
    }
    const problem = checkNewPassword(password);
    if (problem) {
      setError(messageText(problem));
      return;
    }
    void send(
      async () => {
        const answer = await register(name.value, email.trim(), password, currentLanguage(), token ?? undefined);
        // Through an invite that approves at once the answer signs in; otherwise an admin approves first.
        if (answer.requiresApproval) setPending(true);
        else signIn(answer);
      },
      (failure) => errorText(failure, 'errors.registrationFailed'),
    );
  }

  if (pending) {
    return (
      <>
        <h1>{t('auth.pendingTitle')}</h1>
        <p className="notice notice-success" role="status">
          {t('serverMessages.registrationPending')}
        </p>
        <BackToLogin />
      </>
    );
  }

  return (
    <>
      <h1>{t('auth.registerTitle')}</h1>
      {invite.state === 'checking' ? (
        <p className="muted" role="status">
          {t('invites.register.checking')}
        </p>
      ) : null}
      {invite.state === 'open' ? (
        <p className="notice notice-success" role="status" data-testid="invite-state">
          <strong>{t('invites.register.invited', { club: config.site_title })}</strong>
          <br />
          {invite.approve ? t('invites.register.approves') : t('invites.register.waits')}
        </p>
      ) : null}
      {invite.state === 'unchecked' ? (
        <p className="notice notice-warning" role="status">
          {t('invites.register.checkFailed')}
        </p>
      ) : null}
      {invite.state === 'refused' ? (
        <>
          <p className="notice notice-warning" role="alert" data-testid="invite-state">
            {invite.text}
          </p>
          <p className="auth-switch">
            <Link to="/register">{t('invites.register.withoutInvite')}</Link>
          </p>
        </>
      ) : (
        <AuthForm busy={busy} error={error} submitLabel={t('auth.register')} busyLabel={t('auth.registering')} onSubmit={submit}>
          <UsernameField value={username} onChange={setUsername} />
          <EmailField value={email} onChange={setEmail} />
          <PasswordField kind="password" fresh hint value={password} onChange={setPassword} />
        </AuthForm>
      )}
      <p className="auth-switch">
        {t('auth.haveAccount')} <Link to="/login">{t('auth.loginLink')}</Link>
      </p>
    </>
  );
}
