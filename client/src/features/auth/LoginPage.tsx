import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { login } from '../../api/auth.js';
import { preloadData, signIn, useParkedChanges } from '../../app/session.js';
import { errorText } from '../../i18n/index.js';
import { Field, FormError } from '../../ui/Field.js';

/** /login: username and password; a signed-in user is sent on by the route guard. */
export function LoginPage() {
  const { t } = useTranslation();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const parked = useParkedChanges();

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setError(null);
    preloadData(); // fetch the local database's code while the server checks the password
    try {
      signIn(await login(username.trim(), password));
    } catch (failure) {
      setError(errorText(failure, 'errors.loginFailed'));
      setBusy(false);
    }
  }

  return (
    <>
      <h1>{t('auth.loginTitle')}</h1>
      {parked && (
        <p className="notice notice-warning" role="status">
          {t('auth.parkedChanges', { count: parked.count, username: parked.username })}
        </p>
      )}
      <form className="form" onSubmit={(event) => void submit(event)}>
        <Field
          label={t('auth.username')}
          name="username"
          autoComplete="username"
          required
          value={username}
          onChange={(e) => setUsername(e.target.value)}
        />
        <Field
          label={t('auth.password')}
          name="password"
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <FormError message={error} />
        <button type="submit" className="button button-primary button-block" disabled={busy}>
          {busy ? t('auth.signingIn') : t('auth.login')}
        </button>
      </form>
      <p className="auth-switch">
        <Link to="/forgot-password">{t('recovery.forgotLink')}</Link>
      </p>
      <p className="auth-switch">
        {t('auth.noAccount')} <Link to="/register">{t('auth.registerLink')}</Link>
      </p>
    </>
  );
}
