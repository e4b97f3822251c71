import type { Language } from '@fankurve/shared/constants';
import { formerMemberName } from '@fankurve/shared/rules/erasure';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchErasedUsers, type ErasedUser } from '../../api/admin.js';
import { formatClubDay, formatDay } from '../../i18n/dates.js';
import { RowTable, TableScroll } from '../../ui/RowTable.js';
import { failureText } from './format.js';

/**
 * "Gelöschte Konten" on /users (docs/architecture.md, Erasure and retention): every erased account,
 * newest first, by its pseudonym in the admin's language, when it was erased, until when the books
 * keep something of it and how many ledger entries and tickets that is. Loaded again whenever
 * `version` changes (an erasure on this page).
 */
export function ErasedAccountsSection({ language, version }: { language: Language; version: number }) {
  const { t } = useTranslation();
  const headingId = useId();
  const [users, setUsers] = useState<ErasedUser[] | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    fetchErasedUsers().then(
      (loaded) => {
        if (!live) return;
        setUsers(loaded);
        setFailure(null);
      },
      (error: unknown) => live && setFailure(failureText(error, t('erasure.users.loadFailed'))),
    );
    return () => {
      live = false;
    };
  }, [version, t]);

  const keptUntil = (user: ErasedUser) =>
    user.kept_until === null
      ? t('erasure.users.nothingKept')
      : t('erasure.users.keptUntilDate', { date: formatClubDay(user.kept_until, language) });

  return (
    <section className="erased-accounts" aria-labelledby={headingId} data-testid="erased-accounts">
      <h2 id={headingId}>{t('erasure.users.heading')}</h2>
      <p className="muted erased-accounts-hint">{t('erasure.users.hint')}</p>
      {failure ? (
        <p className="form-error" role="alert">
          {failure}
        </p>
      ) : !users ? (
        <p className="muted">{t('common.loading')}</p>
      ) : users.length === 0 ? (
        <p className="muted">{t('erasure.users.empty')}</p>
      ) : (
        <TableScroll>
          <RowTable
            className="erased-table"
            rows={users}
            columns={[
              { header: t('erasure.users.name'), cell: (user) => formerMemberName(user.former_number, language) },
              { header: t('erasure.users.erasedAt'), cell: (user) => formatDay(user.erased_at, language) },
              { header: t('erasure.users.keptUntil'), cell: keptUntil },
              { header: t('erasure.users.ledgerEntries'), num: true, cell: (user) => user.ledger_entries },
              { header: t('erasure.users.tickets'), num: true, cell: (user) => user.tickets },
            ]}
          />
        </TableScroll>
      )}
    </section>
  );
}
