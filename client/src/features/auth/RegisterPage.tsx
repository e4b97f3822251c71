import { checkNewPassword } from '@fankurve/shared/rules/password';
import { checkUsername } from '@fankurve/shared/rules/usernames';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { register } from '../../api/auth.js';
import { signIn } from '../../app/session.js';
import { currentLanguage, errorText, messageText } from '../../i18n/index.js';
import { Field, FormError } from '../../ui/Field.js';

/** /register: username, email and password; usually ends waiting for an admin's approval. */
export function RegisterPage() {
  const { t } = useTranslation();
  const [username, setUsername] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
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
    setBusy(true);
    setError(null);
    try {
      const answer = await register(name.value, email.trim(), password, currentLanguage());
      if ('token' in answer && answer.token && !answer.requiresApproval) {
        signIn({ token: answer.token, user: answer.user });
        return;
      }
      setPending(true);
    } catch (failure) {
      setError(errorText(failure, 'errors.registrationFailed'));
    }
    setBusy(false);
  }

  if (pending) {
    return (
      <>
        <h1>{t('auth.pendingTitle')}</h1>
        <p className="notice notice-success" role="status">
          {t('serverMessages.registrationPending')}
        </p>
        <p className="auth-switch">
          <Link to="/login">{t('auth.backToLogin')}</Link>
        </p>
      </>
    );
  }

  return (
    <>
      <h1>{t('auth.registerTitle')}</h1>
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
          label={t('auth.email')}
          name="email"
          type="email"
          autoComplete="email"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        <Field
          label={t('auth.password')}
          name="password"
          type="password"
          autoComplete="new-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          hint={t('auth.passwordHint')}
        />
        <FormError message={error} />
        <button type="submit" className="button button-primary button-block" disabled={busy}>
          {busy ? t('auth.registering') : t('auth.register')}
        </button>
      </form>
      <p className="auth-switch">
        {t('auth.haveAccount')} <Link to="/login">{t('auth.loginLink')}</Link>
      </p>
    </>
  );
}
