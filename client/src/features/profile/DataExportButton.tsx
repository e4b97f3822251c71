import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchMemberData } from '../../api/dataExport.js';
import { errorText, i18next } from '../../i18n/index.js';
import { downloadBlob } from '../../ui/download.js';
import { useOnline } from '../../ui/NeedsConnection.js';
import { toastError } from '../../ui/toast.js';
import './dataExport.css';

/**
 * "Meine Daten herunterladen" (docs/architecture.md, Data export): everything the app keeps about a
 * member as a ZIP from the server, so online only (offline the button is off and says why). Without
 * `user` it is the signed-in member's own; an admin's profile page of a member passes that member.
 */
export function DataExportButton({ user }: { user?: { id: string; username: string } }) {
  const { t } = useTranslation();
  const online = useOnline();
  const [busy, setBusy] = useState(false);

  const download = async () => {
    setBusy(true);
    try {
      const file = await fetchMemberData(user?.id);
      downloadBlob(file.filename, file.blob);
    } catch (error) {
      const text = errorText(error);
      toastError(text === i18next.t('errors.generic') ? t('members.export.failed') : text);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="data-export">
      <p className="muted">{user ? t('members.export.memberHint', { username: user.username }) : t('members.export.hint')}</p>
      <button type="button" className="button button-secondary" disabled={!online || busy} onClick={() => void download()}>
        {busy ? t('members.export.preparing') : user ? t('members.export.memberButton') : t('members.export.button')}
      </button>
      {!online ? (
        <p className="muted" role="status">
          {t('members.export.offline')}
        </p>
      ) : null}
    </div>
  );
}
