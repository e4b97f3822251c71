import { checkNewPassword } from '@fankurve/shared/rules/password';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { changePassword } from '../../api/auth.js';
import { signIn, useUser } from '../../session/session.js';
import { errorText, messageText } from '../../i18n/index.js';
import { toastSuccess } from '../../ui/toast.js';
import { AuthForm, PasswordField, useSend } from './AuthForm.js';

/** /change-password: forced (must_change_password) or voluntary; success leads to /events. */
export function ChangePasswordPage() {
  const { t } = useTranslation();
  const user = useUser();
  const navigate = useNavigate();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const { busy, error, setError, send } = useSend();

  function submit() {
    if (next !== confirm) {
      setError(t('errors.newPasswordsDoNotMatch'));
      return;
    }
    const problem = checkNewPassword(next);
    if (problem) {
      setError(messageText(problem));
      return;
    }
    void send(
      async () => {
        const answer = await changePassword(current, next);
        signIn({ token: answer.token, user: answer.user }); // the old token is void now
        toastSuccess(t('serverMessages.passwordChanged'));
        void navigate('/events', { replace: true });
      },
      (failure) => errorText(failure, 'errors.changePasswordFailed'),
    );
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
        <AuthForm busy={busy} error={error} submitLabel={t('auth.changePassword')} busyLabel={t('auth.saving')} onSubmit={submit}>
          <PasswordField kind="current" value={current} onChange={setCurrent} />
          {/* Not `required`: an empty new password gets the rule's message, not the browser's. */}
          <PasswordField kind="new" fresh hint required={false} value={next} onChange={setNext} />
          <PasswordField kind="confirm" fresh required={false} value={confirm} onChange={setConfirm} />
        </AuthForm>
      </div>
    </section>
  );
}
