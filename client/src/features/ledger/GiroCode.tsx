import { epcPayload, isPayableByGiroCode } from '@fankurve/shared/rules/girocode';
import { formatMoney } from '@fankurve/shared/rules/money';
import { formatIban } from '@fankurve/shared/rules/siteConfig';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../../i18n/index.js';
import { useSiteConfig } from '../../session/siteConfig.js';
import { useQrPath } from '../../ui/useQrPath.js';
import { toastError, toastSuccess } from '../../ui/toast.js';
import './GiroCode.css';

/**
 * The GiroCode (the EPC QR code banking apps read) for what the member owes (docs/architecture.md,
 * Club account and GiroCode): built on the device from the club's account in the cached site
 * configuration, so it shows offline; with the payee, IBAN, amount and reference as text beneath it
 * for typing by hand. Nothing without a configured account or without an amount to pay.
 */
export function GiroCode({ amountCents, reference }: { amountCents: number; reference: string }) {
  const { t } = useTranslation();
  const titleId = useId();
  const language = currentLanguage();
  const { account_holder: holder, iban, bic } = useSiteConfig();
  const payable = holder !== null && iban !== null && isPayableByGiroCode(amountCents);
  const code = useQrPath(payable ? epcPayload({ bic, name: holder, iban, amountCents, reference }) : null);
  const amount = formatMoney(amountCents, language);
  // More than a GiroCode carries (the same rule as the server's 409 `ledgerAmountTooLarge`): said, not drawn.
  if (holder !== null && iban !== null && amountCents > 0 && !isPayableByGiroCode(amountCents)) {
    return (
      <p className="notice notice-warning" role="status" data-testid="giro-code-too-large">
        {t('account.giro.tooLarge', { amount })}
      </p>
    );
  }
  if (!payable) return null;

  async function copyIban() {
    try {
      await navigator.clipboard.writeText(iban!);
      toastSuccess(t('account.giro.copied'));
    } catch {
      toastError(t('account.giro.copyFailed'));
    }
  }

  return (
    <section className="card giro-code" aria-labelledby={titleId} data-testid="giro-code">
      {/* A section of /my-tickets beneath its h1 (axe heading-order). */}
      <h2 id={titleId}>{t('account.giro.title')}</h2>
      <div className="giro-code-body">
        {code ? (
          <svg
            className="giro-code-qr"
            viewBox={`0 0 ${code.size} ${code.size}`}
            role="img"
            aria-label={t('account.giro.codeLabel', { amount, holder })}
            shapeRendering="crispEdges"
            data-testid="giro-code-qr"
          >
            <rect width={code.size} height={code.size} fill="#fff" />
            <path d={code.path} fill="#000" />
          </svg>
        ) : (
          // The code's room while it is drawn: the text beside it does not move.
          <div className="giro-code-qr" aria-hidden="true" />
        )}
        <div className="giro-code-text">
          <dl>
            <dt>{t('account.giro.holder')}</dt>
            <dd>{holder}</dd>
            <dt>{t('account.giro.iban')}</dt>
            <dd className="giro-code-iban">
              <span data-testid="giro-code-iban">{formatIban(iban)}</span>
              <button type="button" className="button button-ghost button-small" onClick={() => void copyIban()}>
                {t('account.giro.copyIban')}
              </button>
            </dd>
            {bic ? (
              <>
                <dt>{t('account.giro.bic')}</dt>
                <dd>{bic}</dd>
              </>
            ) : null}
            <dt>{t('account.giro.amount')}</dt>
            <dd className="giro-code-amount">{amount}</dd>
            <dt>{t('account.giro.reference')}</dt>
            <dd className="giro-code-reference">{reference}</dd>
          </dl>
        </div>
      </div>
    </section>
  );
}
