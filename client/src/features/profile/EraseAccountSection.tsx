import { todayIn } from '@fankurve/shared/dates';
import { erasureProblem } from '@fankurve/shared/rules/erasure';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { eraseOwnAccount } from '../../api/profile.js';
import { myOwedFigures, useMyLedger, useMyTickets } from '../../data/index.js';
import { errorText, i18next, messageText } from '../../i18n/index.js';
import { signOutErased, useUser } from '../../session/session.js';
import { useSiteConfig } from '../../session/siteConfig.js';
import { ConfirmDialog } from '../../ui/Dialog.js';
import { Field, FormError } from '../../ui/Field.js';
import { useOnline } from '../../ui/NeedsConnection.js';

/** The server's message for a failed call, else this section's own fallback (docs/product.md, "Error texts"). */
function failureText(error: unknown, fallback: string): string {
  const text = errorText(error);
  return text === i18next.t('errors.generic') ? fallback : text;
}

/**
 * Why erasure has to wait, from the member's ledger and tickets on the device (the figures /my-tickets
 * shows), by the shared rule; null while they load or when nothing stands in the way. The server
 * checks again and decides.
 */
function useErasureProblem(userId: string): string | null {
  const today = todayIn(useSiteConfig().time_zone);
  const tickets = useMyTickets(userId, today);
  const ledger = useMyLedger(userId);
  if (!tickets || !ledger) return null;
  const owed = myOwedFigures(ledger, tickets.unpaid);
  return erasureProblem({ balanceCents: owed.balanceCents, openPriceCount: owed.openPriceCount });
}

/**
 * "Konto löschen" (docs/product.md, Data protection; docs/architecture.md, Erasure and retention): what
 * goes at once and what the books keep, the reason erasure waits (a balance, an open ticket price),
 * and the password with a confirmation before POST /api/me/erase. Online only. Once erased, the
 * device signs out and drops everything; the login page says that the account was erased.
 */
export function EraseAccountSection() {
  const { t } = useTranslation();
  const user = useUser();
  const online = useOnline();
  const headingId = useId();
  const problem = useErasureProblem(user.id);
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);

  const ask = (event: FormEvent) => {
    event.preventDefault();
    if (!password) return setError(t('erasure.profile.passwordRequired'));
    setError(null);
    setConfirming(true);
  };

  const erase = async () => {
    setBusy(true);
    try {
      await eraseOwnAccount(password);
    } catch (failure) {
      setConfirming(false);
      setBusy(false);
      setPassword('');
      setError(failureText(failure, t('erasure.profile.failed')));
      return;
    }
    await signOutErased(user.id);
  };

  return (
    <section className="card profile-section profile-erase" aria-labelledby={headingId} data-testid="erase-account">
      <h2 id={headingId}>{t('erasure.profile.heading')}</h2>
      <p>{t('erasure.profile.erasedNow')}</p>
      <p>{t('erasure.profile.keptForBooks')}</p>
      <p>
        <Link to="/datenschutz">{t('erasure.profile.privacyLink')}</Link>
      </p>
      {problem ? (
        <p className="notice notice-warning profile-erase-problem" data-testid="erasure-problem">
          {messageText(problem)}
        </p>
      ) : null}
      <form className="form profile-erase-form" noValidate onSubmit={ask}>
        <Field
          label={t('erasure.profile.password')}
          type="password"
          name="erase-password"
          autoComplete="current-password"
          value={password}
          disabled={!online || busy}
          onChange={(event) => setPassword(event.target.value)}
        />
        <FormError message={error} />
        <button type="submit" className="button button-danger" disabled={!online || busy}>
          {busy ? t('erasure.profile.erasing') : t('erasure.profile.button')}
        </button>
        {!online ? (
          <p className="muted" role="status">
            {t('erasure.profile.offline')}
          </p>
        ) : null}
      </form>
      {confirming ? (
        <ConfirmDialog
          title={t('erasure.profile.confirmTitle')}
          message={t('erasure.profile.confirmText')}
          confirmLabel={t('erasure.profile.confirmButton')}
          busy={busy}
          onConfirm={() => void erase()}
          onCancel={() => setConfirming(false)}
        />
      ) : null}
    </section>
  );
}
