import { epcPayload, isPayableByGiroCode } from '@fankurve/shared/rules/girocode';
import { formatMoney } from '@fankurve/shared/rules/money';
import { formatIban } from '@fankurve/shared/rules/siteConfig';
import QRCode from 'qrcode';
import { useId, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../../i18n/index.js';
import { useSiteConfig } from '../../session/siteConfig.js';
import { toastError, toastSuccess } from '../../ui/toast.js';
import './GiroCode.css';

/** The light border around a QR code that scanners need: four modules wide. */
const QUIET_ZONE = 4;

/**
 * The QR code's dark modules as one SVG path (a 1×1 square per module, quiet zone included), at
 * error correction level M as the EPC's guidelines ask. Drawn as inline SVG: no image, no style
 * attribute, so the Content-Security-Policy has nothing to allow (docs/architecture.md, Content-Security-Policy).
 */
function qrPath(payload: string): { size: number; path: string } {
  const { modules } = QRCode.create(payload, { errorCorrectionLevel: 'M' });
  const parts: string[] = [];
  for (let row = 0; row < modules.size; row++) {
    for (let col = 0; col < modules.size; col++) {
      if (modules.get(row, col)) parts.push(`M${col + QUIET_ZONE} ${row + QUIET_ZONE}h1v1h-1z`);
    }
  }
  return { size: modules.size + 2 * QUIET_ZONE, path: parts.join('') };
}

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
  const code = useMemo(
    () => (payable ? qrPath(epcPayload({ bic, name: holder, iban, amountCents, reference })) : null),
    [payable, bic, holder, iban, amountCents, reference],
  );
  const amount = formatMoney(amountCents, language);
  // More than a GiroCode carries (the same rule as the server's 409 `ledgerAmountTooLarge`): said, not drawn.
  if (holder !== null && iban !== null && amountCents > 0 && !isPayableByGiroCode(amountCents)) {
    return (
      <p className="notice notice-warning" role="status" data-testid="giro-code-too-large">
        {t('account.giro.tooLarge', { amount })}
      </p>
    );
  }
  if (!payable || !code) return null;

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
