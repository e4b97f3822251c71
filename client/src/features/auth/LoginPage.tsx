import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { login } from '../../api/auth.js';
import { preloadData, signIn, useFarewell, useParkedChanges } from '../../session/session.js';
import { errorText, messageText } from '../../i18n/index.js';
import { AuthForm, PasswordField, UsernameField, useSend } from './AuthForm.js';

/** /login: username and password; a signed-in user is sent on by the route guard. */
export function LoginPage() {
  const { t } = useTranslation();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const { busy, error, send } = useSend();
  const parked = useParkedChanges();
  const farewell = useFarewell();

  function submit() {
    preloadData(); // fetch the local database's code while the server checks the password
    void send(
      async () => signIn(await login(username.trim(), password)),
      (failure) => errorText(failure, 'errors.loginFailed'),
    );
  }

  return (
    <>
      <h1>{t('auth.loginTitle')}</h1>
      {farewell && (
        <p className="notice notice-success" role="status" data-testid="session-farewell">
          {messageText(farewell)}
        </p>
      )}
      {parked && (
        <p className="notice notice-warning" role="status">
          {t('auth.parkedChanges', { count: parked.count, username: parked.username })}
        </p>
      )}
      <AuthForm busy={busy} error={error} submitLabel={t('auth.login')} busyLabel={t('auth.signingIn')} onSubmit={submit}>
        <UsernameField value={username} onChange={setUsername} />
        <PasswordField kind="password" value={password} onChange={setPassword} />
      </AuthForm>
      <p className="auth-switch">
        <Link to="/forgot-password">{t('recovery.forgotLink')}</Link>
      </p>
      <p className="auth-switch">
        {t('auth.noAccount')} <Link to="/register">{t('auth.registerLink')}</Link>
      </p>
    </>
  );
}
