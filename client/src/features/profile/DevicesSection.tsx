import type { Language } from '@fankurve/shared/constants';
import { useCallback, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText, i18next } from '../../i18n/index.js';
import { ConfirmDialog } from '../../ui/Dialog.js';
import { toastError, toastSuccess } from '../../ui/toast.js';
import { endDeviceSession, endOtherSessions, fetchSessions, type DeviceSession } from '../../api/profile.js';
import { formatDateTime } from './format.js';

/** The server's message for a failed call, else this section's own fallback (docs/product.md, "Error texts"). */
function failureText(error: unknown, fallback: string): string {
  const text = errorText(error);
  return text === i18next.t('errors.generic') ? fallback : text;
}

/**
 * The user's signed-in devices (GET /api/auth/sessions): device name, last use, this device marked;
 * every other device can be signed out, or all of them at once after a confirmation. A signed-out
 * device is told at once through its change stream (or at its next request) and goes to /login.
 */
export function DevicesSection({ language }: { language: Language }) {
  const { t } = useTranslation();
  const headingId = useId();
  const [sessions, setSessions] = useState<DeviceSession[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);

  const load = useCallback(async () => {
    try {
      const loaded = await fetchSessions();
      // This device first, then the most recently used.
      setSessions([...loaded].sort((a, b) => Number(b.current) - Number(a.current)));
      setLoadError(null);
    } catch (error) {
      setLoadError(failureText(error, i18next.t('profile.devices.loadFailed')));
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  // The server names devices in English ("Chrome on Android"): the joining word in the app's language.
  const deviceName = (name: string) => name.replace(/ on /, ` ${t('profile.devices.on')} `);

  const signOut = async (session: DeviceSession) => {
    setBusy(session.id);
    try {
      await endDeviceSession(session.id);
      toastSuccess(t('serverMessages.sessionEnded'));
      setSessions((current) => current?.filter((s) => s.id !== session.id) ?? null);
    } catch (error) {
      toastError(failureText(error, t('profile.devices.signOutFailed')));
      void load();
    } finally {
      setBusy(null);
    }
  };

  const signOutOthers = async () => {
    setBusy('others');
    try {
      await endOtherSessions();
      toastSuccess(t('serverMessages.otherSessionsEnded'));
      setConfirming(false);
      await load();
    } catch (error) {
      setConfirming(false);
      toastError(failureText(error, t('profile.devices.signOutFailed')));
    } finally {
      setBusy(null);
    }
  };

  const others = sessions?.filter((s) => !s.current) ?? [];

  return (
    <section className="card profile-section" aria-labelledby={headingId}>
      <h2 id={headingId}>{t('profile.devices.heading')}</h2>
      {sessions === null ? (
        loadError ? (
          <div className="profile-row">
            <p className="form-error" role="alert">
              {loadError}
            </p>
            <button type="button" className="button button-secondary button-small" onClick={() => void load()}>
              {t('profile.devices.retry')}
            </button>
          </div>
        ) : (
          <p className="muted">{t('common.loading')}</p>
        )
      ) : (
        <>
          <ul className="profile-devices" aria-labelledby={headingId}>
            {sessions.map((session) => (
              <li key={session.id} className={session.current ? 'profile-device profile-device-current' : 'profile-device'}>
                <div className="profile-device-body">
                  <p className="profile-device-name">
                    <span>{deviceName(session.device_name)}</span>
                    {session.current ? (
                      <span className="badge profile-this-device">{t('profile.devices.thisDevice')}</span>
                    ) : null}
                  </p>
                  <p className="profile-device-when muted">
                    {t('profile.devices.lastSeen', { time: formatDateTime(session.last_seen_at, language) })}
                  </p>
                </div>
                {session.current ? null : (
                  <button
                    type="button"
                    className="button button-danger-ghost button-small"
                    disabled={busy !== null}
                    aria-label={t('profile.devices.signOutDevice', { device: deviceName(session.device_name) })}
                    onClick={() => void signOut(session)}
                  >
                    {t('profile.devices.signOut')}
                  </button>
                )}
              </li>
            ))}
          </ul>
          {others.length > 0 ? (
            <button
              type="button"
              className="button button-danger-ghost profile-others"
              disabled={busy !== null}
              onClick={() => setConfirming(true)}
            >
              {t('profile.devices.signOutOthers')}
            </button>
          ) : (
            <p className="muted profile-note">{t('profile.devices.onlyThis')}</p>
          )}
        </>
      )}
      {confirming ? (
        <ConfirmDialog
          title={t('profile.devices.confirmTitle')}
          message={t('profile.devices.confirmText', { count: others.length })}
          confirmLabel={t('profile.devices.confirmButton')}
          busy={busy === 'others'}
          onConfirm={() => void signOutOthers()}
          onCancel={() => setConfirming(false)}
        />
      ) : null}
    </section>
  );
}
