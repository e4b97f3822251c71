import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { isApiError } from '../../api/client.js';
import { requestPasswordReset } from '../../api/recovery.js';
import { errorText } from '../../i18n/index.js';
import { Field, FormError } from '../../ui/Field.js';

/**
 * /forgot-password (SPEC 2): the email of the account. The server answers the same whether or not
 * the address has an account, and so does this page; only a refusal (bad address, too many
 * requests, no network) shows as an error.
 */
export function ForgotPasswordPage() {
  const { t } = useTranslation();
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      await requestPasswordReset(email.trim());
      setSent(true);
    } catch (failure) {
      // The server's refusal (bad address, too many requests) or no network; anything else, this page's fallback.
      setError(isApiError(failure) ? errorText(failure) : t('recovery.forgotFailed'));
    } finally {
      setBusy(false);
    }
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
          <form className="form" onSubmit={(event) => void submit(event)}>
            <Field
              label={t('auth.email')}
              name="email"
              type="email"
              autoComplete="email"
              required
              value={email}
              onChange={(e) => setEmail(e.target.value)}
            />
            <FormError message={error} />
            <button type="submit" className="button button-primary button-block" disabled={busy}>
              {busy ? t('recovery.sending') : t('recovery.sendLink')}
            </button>
          </form>
        </>
      )}
      <p className="auth-switch">
        <Link to="/login">{t('auth.backToLogin')}</Link>
      </p>
    </>
  );
}
