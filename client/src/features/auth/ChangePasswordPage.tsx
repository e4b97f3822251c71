import { checkNewPassword } from '@fankurve/shared/rules/password';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { changePassword } from '../../api/auth.js';
import { signIn, useUser } from '../../app/session.js';
import { errorText, messageText } from '../../i18n/index.js';
import { Field, FormError } from '../../ui/Field.js';
import { toastSuccess } from '../../ui/toast.js';

/** /change-password: forced (must_change_password) or voluntary; success leads to /events. */
export function ChangePasswordPage() {
  const { t } = useTranslation();
  const user = useUser();
  const navigate = useNavigate();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    if (next !== confirm) {
      setError(t('errors.newPasswordsDoNotMatch'));
      return;
    }
    const problem = checkNewPassword(next);
    if (problem) {
      setError(messageText(problem));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const answer = await changePassword(current, next);
      signIn({ token: answer.token, user: answer.user }); // the old token is void now
      toastSuccess(t('serverMessages.passwordChanged'));
      void navigate('/events', { replace: true });
    } catch (failure) {
      setError(errorText(failure, 'errors.changePasswordFailed'));
      setBusy(false);
    }
  }

  return (
    <section className="page page-narrow">
      <div className="card">
        <h1>{t('auth.changePasswordTitle')}</h1>
        {user.must_change_password ? (
          <p className="notice notice-warning" role="status">
            {t('serverMessages.mustChangePassword')}
          </p>
        ) : null}
        <form className="form" onSubmit={(event) => void submit(event)}>
          <Field
            label={t('auth.currentPassword')}
            name="currentPassword"
            type="password"
            autoComplete="current-password"
            required
            value={current}
            onChange={(e) => setCurrent(e.target.value)}
          />
          <Field
            label={t('auth.newPassword')}
            name="newPassword"
            type="password"
            autoComplete="new-password"
            value={next}
            onChange={(e) => setNext(e.target.value)}
            hint={t('auth.passwordHint')}
          />
          <Field
            label={t('auth.confirmPassword')}
            name="confirmPassword"
            type="password"
            autoComplete="new-password"
            value={confirm}
            onChange={(e) => setConfirm(e.target.value)}
          />
          <FormError message={error} />
          <button type="submit" className="button button-primary button-block" disabled={busy}>
            {busy ? t('auth.saving') : t('auth.changePassword')}
          </button>
        </form>
      </div>
    </section>
  );
}
