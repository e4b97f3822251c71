import { useEffect, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { promptInstall, useInstallState } from '../../pwa/install.js';
import { Modal } from '../../ui/Dialog.js';

/**
 * The install prompt after sign-in (docs/architecture.md, Profile and prompts): "install" opens the browser's own
 * install dialog from this click; "not now", Escape and the close button only close it. It is not
 * shown again on this device either way (app/Prompts.tsx).
 */
export function InstallPromptDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const textId = useId();
  const install = useInstallState();

  // Installed meanwhile (e.g. from the browser's menu): nothing left to ask.
  useEffect(() => {
    if (install === 'installed') onClose();
  }, [install, onClose]);

  return (
    <Modal title={t('profile.install.promptTitle')} onClose={onClose} size="small" describedBy={textId}>
      <p id={textId} className="confirm-message">
        {t('profile.install.promptText')}
      </p>
      <div className="modal-actions">
        <button type="button" className="button button-secondary" onClick={onClose}>
          {t('profile.install.notNow')}
        </button>
        <button
          type="button"
          className="button button-primary"
          onClick={() => {
            void promptInstall();
            onClose();
          }}
        >
          {t('profile.install.install')}
        </button>
      </div>
    </Modal>
  );
}
