import { applyLanguage, i18next, messageText } from '../i18n/index.js';
import { getSession, onSessionMessage, subscribeSession } from '../session/session.js';
import { showToast } from '../ui/toast.js';

/** Server notices that report a success (the others are refusals). */
const SUCCESS_NOTICES = new Set<string>(['attendanceSaved', 'attendanceRemoved', 'passwordChanged', 'userApproved']);

/**
 * Words and shows what the session tells, which sits below i18n and the interface (docs/architecture.md,
 * Layers): the signed-in member's language, the server's notices as toasts, a session the server
 * ended, and changes kept at a sign-out. Call once, before `startSession`.
 */
export function showSessionMessages(): void {
  subscribeSession(() => {
    const session = getSession();
    if (session.status === 'signedIn') void applyLanguage(session.user.language);
  });
  onSessionMessage((message) => {
    switch (message.kind) {
      case 'notice': {
        const text = messageText(message.notice.code, message.notice.message);
        if (text) showToast(text, SUCCESS_NOTICES.has(message.notice.code) ? 'success' : 'error');
        return;
      }
      case 'ended':
        showToast(messageText(message.reason), 'error');
        return;
      case 'changesKept':
        showToast(i18next.t('session.changesKept', { count: message.count }), 'info', 8_000);
    }
  });
}
