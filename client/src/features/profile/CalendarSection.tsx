import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchCalendarUrl, rotateCalendarUrl } from '../../api/calendar.js';
import { errorText, i18next } from '../../i18n/index.js';
import { ConfirmDialog } from '../../ui/Dialog.js';
import { Field } from '../../ui/Field.js';
import { useOnline } from '../../ui/NeedsConnection.js';
import { showToast, toastError, toastSuccess } from '../../ui/toast.js';

/** The server's message for a failed call, else this section's own fallback (docs/product.md, "Error texts"). */
function failureText(error: unknown, fallback: string): string {
  const text = errorText(error);
  return text === i18next.t('errors.generic') ? fallback : text;
}

/** The address for calendar apps: the same feed under the webcal: scheme, which they open as a subscription. */
const webcalUrl = (url: string) => url.replace(/^https?:/i, 'webcal:');

/**
 * The member's private calendar feed (docs/architecture.md, Calendar feed): the address is loaded
 * only on "Show address", since the first GET creates the member's token. Copy, add to a calendar
 * app (webcal:), or draw a new address after a confirmation (the old one stops working).
 * The address lives on the server only: offline the section says it needs a connection.
 */
export function CalendarSection() {
  const { t } = useTranslation();
  const online = useOnline();
  const headingId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [url, setUrl] = useState<string | null>(null);
  const [busy, setBusy] = useState<'load' | 'rotate' | null>(null);
  const [confirming, setConfirming] = useState(false);

  const show = async () => {
    setBusy('load');
    try {
      setUrl(await fetchCalendarUrl());
    } catch (error) {
      toastError(failureText(error, t('profile.calendar.loadFailed')));
    } finally {
      setBusy(null);
    }
  };

  const rotate = async () => {
    setBusy('rotate');
    try {
      setUrl(await rotateCalendarUrl());
      toastSuccess(t('profile.calendar.rotated'));
    } catch (error) {
      toastError(failureText(error, t('profile.calendar.rotateFailed')));
    } finally {
      setConfirming(false);
      setBusy(null);
    }
  };

  /** Without a clipboard (an insecure origin, an old browser) the text is selected for copying by hand. */
  const copy = async () => {
    if (!url) return;
    try {
      if (!navigator.clipboard?.writeText) throw new Error('no clipboard');
      await navigator.clipboard.writeText(url);
      toastSuccess(t('profile.calendar.copied'));
    } catch {
      inputRef.current?.focus();
      inputRef.current?.select();
      showToast(t('profile.calendar.selected'));
    }
  };

  return (
    <section className="card profile-section profile-calendar" aria-labelledby={headingId}>
      <h2 id={headingId}>{t('profile.calendar.heading')}</h2>
      <p>{t('profile.calendar.text')}</p>
      <p className="muted">{t('profile.calendar.rotatesWithPassword')}</p>
      {!online ? (
        <p className="muted" role="status">
          {t('profile.calendar.offline')}
        </p>
      ) : url === null ? (
        <button type="button" className="button button-secondary" disabled={busy !== null} onClick={() => void show()}>
          {busy === 'load' ? t('common.loading') : t('profile.calendar.show')}
        </button>
      ) : (
        <>
          <Field label={t('profile.calendar.address')}>
            {(control) => (
              <input
                {...control}
                ref={inputRef}
                className="profile-calendar-url"
                type="text"
                value={url}
                readOnly
                spellCheck={false}
                onFocus={(event) => event.currentTarget.select()}
              />
            )}
          </Field>
          <div className="profile-row profile-calendar-actions">
            <button type="button" className="button button-secondary button-small" onClick={() => void copy()}>
              {t('profile.calendar.copy')}
            </button>
            <a className="button button-secondary button-small" href={webcalUrl(url)}>
              {t('profile.calendar.add')}
            </a>
            <button
              type="button"
              className="button button-danger-ghost button-small"
              disabled={busy !== null}
              onClick={() => setConfirming(true)}
            >
              {t('profile.calendar.rotate')}
            </button>
          </div>
        </>
      )}
      {confirming ? (
        <ConfirmDialog
          title={t('profile.calendar.confirmTitle')}
          message={t('profile.calendar.confirmText')}
          confirmLabel={t('profile.calendar.confirmButton')}
          busy={busy === 'rotate'}
          onConfirm={() => void rotate()}
          onCancel={() => setConfirming(false)}
        />
      ) : null}
    </section>
  );
}
