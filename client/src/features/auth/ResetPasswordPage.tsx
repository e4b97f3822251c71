import { checkNewPassword, checkPasswordConfirmation } from '@fankurve/shared/rules/password';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { isApiError } from '../../api/client.js';
import { resetPassword } from '../../api/recovery.js';
import { errorText, messageText } from '../../i18n/index.js';
import { toastSuccess } from '../../ui/toast.js';
import { AuthForm, BackToLogin, PasswordField, useSend } from './AuthForm.js';

/**
 * /reset-password/:token (docs/product.md, Accounts and security): the new password twice. Both rules
 * are checked here first (shared rules/password.ts), the token by the server; success leads to /login
 * with a notice.
 */
export function ResetPasswordPage() {
  const { t } = useTranslation();
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [tokenRefused, setTokenRefused] = useState(false);
  const { busy, error, setError, send } = useSend();

  function submit() {
    const problem = checkPasswordConfirmation(password, confirm) ?? checkNewPassword(password);
    if (problem) {
      setError(messageText(problem));
      return;
    }
    void send(
      async () => {
        await resetPassword(token, password);
        toastSuccess(t('serverMessages.passwordResetDone'));
        void navigate('/login', { replace: true });
      },
      (failure) => {
        setTokenRefused(isApiError(failure) && failure.code === 'invalidResetToken');
        return isApiError(failure) ? errorText(failure) : t('recovery.resetFailed');
      },
    );
  }

  return (
    <>
      <h1>{t('recovery.resetTitle')}</h1>
      <AuthForm
        busy={busy}
        error={error}
        submitLabel={t('recovery.resetPassword')}
        busyLabel={t('auth.saving')}
        onSubmit={submit}
      >
        <PasswordField kind="new" fresh hint value={password} onChange={setPassword} />
        <PasswordField kind="confirm" fresh value={confirm} onChange={setConfirm} />
      </AuthForm>
      {tokenRefused ? (
        <p className="auth-switch">
          <Link to="/forgot-password">{t('recovery.requestNewLink')}</Link>
        </p>
      ) : (
        <BackToLogin />
      )}
    </>
  );
}
