import { checkNewPassword } from '@fankurve/shared/rules/password';
import { checkUsername } from '@fankurve/shared/rules/usernames';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { register } from '../../api/auth.js';
import { currentLanguage, errorText, messageText } from '../../i18n/index.js';
import { AuthForm, BackToLogin, EmailField, PasswordField, UsernameField, useSend } from './AuthForm.js';

/** /register: username, email and password; usually ends waiting for an admin's approval. */
export function RegisterPage() {
  const { t } = useTranslation();
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
        // Every registration waits for an admin's approval (the answer's `requiresApproval`).
        await register(name.value, email.trim(), password, currentLanguage());
        setPending(true);
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
      <AuthForm busy={busy} error={error} submitLabel={t('auth.register')} busyLabel={t('auth.registering')} onSubmit={submit}>
        <UsernameField value={username} onChange={setUsername} />
        <EmailField value={email} onChange={setEmail} />
        <PasswordField kind="password" fresh hint value={password} onChange={setPassword} />
      </AuthForm>
      <p className="auth-switch">
        {t('auth.haveAccount')} <Link to="/login">{t('auth.loginLink')}</Link>
      </p>
    </>
  );
}
