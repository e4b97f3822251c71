import { useTranslation } from 'react-i18next';
import { dismissToast, useToasts } from './toast.js';

/** The toast stack (bottom of the screen); errors are announced assertively. */
export function Toaster() {
  const toasts = useToasts();
  const { t } = useTranslation();
  return (
    <div className="toasts" aria-live="polite">
      {toasts.map((toast) => (
        <div key={toast.id} className={`toast toast-${toast.kind}`} role={toast.kind === 'error' ? 'alert' : 'status'}>
          <span className="toast-text">{toast.text}</span>
          <button type="button" className="toast-close" onClick={() => dismissToast(toast.id)} aria-label={t('common.close')}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
