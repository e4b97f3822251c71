import { checkNewPassword, checkPasswordConfirmation } from '@fankurve/shared/rules/password';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { isApiError } from '../../api/client.js';
import { resetPassword } from '../../api/recovery.js';
import { errorText, messageText } from '../../i18n/index.js';
import { Field, FormError } from '../../ui/Field.js';
import { toastSuccess } from '../../ui/toast.js';

/**
 * /reset-password/:token (SPEC 2, 5): the new password twice. Both rules are checked here first
 * (shared rules/password.ts), the token by the server; success leads to /login with a notice.
 */
export function ResetPasswordPage() {
  const { t } = useTranslation();
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [tokenRefused, setTokenRefused] = useState(false);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const problem = checkPasswordConfirmation(password, confirm) ?? checkNewPassword(password);
    if (problem) {
      setError(messageText(problem));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await resetPassword(token, password);
      toastSuccess(t('serverMessages.passwordResetDone'));
      void navigate('/login', { replace: true });
    } catch (failure) {
      setTokenRefused(isApiError(failure) && failure.code === 'invalidResetToken');
      setError(isApiError(failure) ? errorText(failure) : t('recovery.resetFailed'));
      setBusy(false);
    }
  }

  return (
    <>
      <h1>{t('recovery.resetTitle')}</h1>
      <form className="form" onSubmit={(event) => void submit(event)}>
        <Field
          label={t('auth.newPassword')}
          name="newPassword"
          type="password"
          autoComplete="new-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          hint={t('auth.passwordHint')}
        />
        <Field
          label={t('auth.confirmPassword')}
          name="confirmPassword"
          type="password"
          autoComplete="new-password"
          required
          value={confirm}
          onChange={(e) => setConfirm(e.target.value)}
        />
        <FormError message={error} />
        <button type="submit" className="button button-primary button-block" disabled={busy}>
          {busy ? t('auth.saving') : t('recovery.resetPassword')}
        </button>
      </form>
      <p className="auth-switch">
        {tokenRefused ? (
          <Link to="/forgot-password">{t('recovery.requestNewLink')}</Link>
        ) : (
          <Link to="/login">{t('auth.backToLogin')}</Link>
        )}
      </p>
    </>
  );
}
