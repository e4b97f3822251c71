import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/client.js';
import { requestPasswordReset } from '../../api/recovery.js';
import { errorText } from '../../i18n/index.js';
import { AuthForm, BackToLogin, EmailField, useSend } from './AuthForm.js';

/**
 * /forgot-password (docs/product.md, Accounts and security): the email of the account. The server
 * answers the same whether or not the address has an account, and so does this page; only a refusal
 * (bad address, too many requests, no network) shows as an error.
 */
export function ForgotPasswordPage() {
  const { t } = useTranslation();
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);
  const { busy, error, send } = useSend();

  function submit() {
    void send(
      async () => {
        await requestPasswordReset(email.trim());
        setSent(true);
      },
      // The server's refusal (bad address, too many requests) or no network; anything else, this page's fallback.
      (failure) => (isApiError(failure) ? errorText(failure) : t('recovery.forgotFailed')),
    );
  }

  return (
    <>
      <h1>{t('recovery.forgotTitle')}</h1>
      {sent ? (
        <>
          <p className="notice notice-success" role="status">
            {t('serverMessages.resetLinkSent')}
          </p>
          <p>{t('recovery.checkMail')}</p>
        </>
      ) : (
        <>
          <p>{t('recovery.forgotIntro')}</p>
          <AuthForm
            busy={busy}
            error={error}
            submitLabel={t('recovery.sendLink')}
            busyLabel={t('recovery.sending')}
            onSubmit={submit}
          >
            <EmailField value={email} onChange={setEmail} />
          </AuthForm>
        </>
      )}
      <BackToLogin />
    </>
  );
}
