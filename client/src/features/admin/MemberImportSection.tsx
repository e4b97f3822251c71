import type { MemberImportRow } from '@fankurve/shared';
import { MEMBER_IMPORT_MAX_BYTES } from '@fankurve/shared/rules/memberImport';
import { useId, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { importMemberList } from '../../api/memberImport.js';
import { Field } from '../../ui/Field.js';
import { RowTable, TableScroll } from '../../ui/RowTable.js';
import { toastSuccess } from '../../ui/toast.js';
import { failureText } from './format.js';
import './memberImport.css';

/**
 * A chosen file's text: UTF-8, else ISO-8859-1 as older spreadsheet programs write CSV (read as
 * Windows-1252, its superset), as the server reads a bank statement (docs/architecture.md, Member import).
 */
function decodeCsvFile(bytes: ArrayBuffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

/**
 * "Mitglieder importieren" on /users (docs/product.md, Users): a CSV list pasted or read from a file,
 * "Prüfen" shows each row with its problem (nothing is created), "N Mitglieder anlegen" creates the
 * rows without one. A changed list must be checked again before anything is created.
 */
export function MemberImportSection({ onCreated }: { onCreated: () => void }) {
  const { t } = useTranslation();
  const headingId = useId();
  const [csv, setCsv] = useState('');
  const [rows, setRows] = useState<MemberImportRow[] | null>(null);
  const [created, setCreated] = useState(false);
  const [busy, setBusy] = useState<'check' | 'create' | null>(null);
  const [error, setError] = useState<string | null>(null);

  const changeList = (text: string) => {
    setCsv(text);
    setRows(null);
    setCreated(false);
    setError(null);
  };

  const readFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    if (file.size > MEMBER_IMPORT_MAX_BYTES) {
      setError(t('members.import.tooLarge'));
      return;
    }
    try {
      changeList(decodeCsvFile(await file.arrayBuffer()));
      toastSuccess(t('members.import.fileRead', { name: file.name }));
    } catch {
      setError(t('members.import.fileFailed'));
    }
  };

  const send = async (confirm: boolean) => {
    if (csv.trim() === '') {
      setError(t('members.import.required'));
      return;
    }
    if (new Blob([csv]).size > MEMBER_IMPORT_MAX_BYTES) {
      setError(t('members.import.tooLarge'));
      return;
    }
    setBusy(confirm ? 'create' : 'check');
    setError(null);
    try {
      const answer = await importMemberList(csv, confirm);
      setRows(answer.rows);
      if (confirm) {
        setCreated(true);
        toastSuccess(t('members.import.created', { count: answer.created }));
        onCreated();
      }
    } catch (failure) {
      setError(failureText(failure, t(confirm ? 'members.import.createFailed' : 'members.import.failed')));
    } finally {
      setBusy(null);
    }
  };

  const valid = rows?.filter((row) => row.problem === null).length ?? 0;

  return (
    <section className="member-import" aria-labelledby={headingId}>
      <h2 id={headingId}>{t('members.import.heading')}</h2>
      <p className="muted">{t('members.import.intro')}</p>
      <p className="muted">{t('members.import.mailNote')}</p>
      <label className="button button-secondary member-import-file">
        {t('members.import.file')}
        <input type="file" accept=".csv,text/csv,text/plain" onChange={(event) => void readFile(event)} />
      </label>
      <Field label={t('members.import.paste')} error={error ?? undefined}>
        {(control) => (
          <textarea
            {...control}
            className="member-import-text"
            rows={6}
            spellCheck={false}
            value={csv}
            onChange={(event) => changeList(event.target.value)}
            placeholder={'Benutzername;E-Mail;Sprache;Rolle;Treuepunkte;Notiz'}
          />
        )}
      </Field>
      <div className="member-import-actions">
        <button type="button" className="button button-secondary" disabled={busy !== null} onClick={() => void send(false)}>
          {busy === 'check' ? t('members.import.checking') : t('members.import.check')}
        </button>
        {rows && !created && valid > 0 ? (
          <button type="button" className="button button-primary" disabled={busy !== null} onClick={() => void send(true)}>
            {busy === 'create' ? t('members.import.creating') : t('members.import.create', { count: valid })}
          </button>
        ) : null}
      </div>
      {rows ? (
        <>
          <p role="status">{t('members.import.summary', { ok: valid, total: rows.length })}</p>
          <TableScroll>
            <RowTable
              className="member-import-table"
              rows={rows.map((row) => ({ ...row, id: String(row.line) }))}
              columns={[
                { header: t('members.import.line'), num: true, cell: (row) => row.line },
                { header: t('members.import.username'), cell: (row) => row.username },
                { header: t('members.import.email'), cell: (row) => row.email },
                {
                  header: t('members.import.problem'),
                  cell: (row) =>
                    row.problem ? (
                      <span className="member-import-problem">{t(`serverMessages.${row.problem}`)}</span>
                    ) : created ? (
                      t('members.import.created')
                    ) : (
                      t('members.import.ok')
                    ),
                },
              ]}
            />
          </TableScroll>
        </>
      ) : null}
    </section>
  );
}
