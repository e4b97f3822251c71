import type { MatchImportResult } from '@fankurve/shared';
import { isApiError } from '../../api/client.js';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useUser } from '../../session/session.js';
import { useSyncStatus } from '../../data/index.js';
import { currentLanguage, errorText, i18next, messageText } from '../../i18n/index.js';
import { Modal } from '../../ui/Dialog.js';
import { formatEventDate } from '../../i18n/eventDates.js';
import { syncMatches } from '../../api/matches.js';
import './matches.css';

/** A failed import: the sentence for the club's admin, and the technical detail behind a disclosure. */
type Outcome = { ok: true; result: MatchImportResult } | { ok: false; text: string; detail: string | null };

/**
 * The sentence for each failure the server's import answers with 502 (docs/architecture.md, "Fixture
 * import"); any other code of a failing service gets the generic one.
 */
const SERVICE_FAILURES = {
  matchServiceUnreachable: 'matches.failure.unreachable',
  matchServiceError: 'matches.failure.error',
  matchServiceBadAnswer: 'matches.failure.badAnswer',
  matchServiceRedirected: 'matches.failure.redirected',
} as const;

/** What a failed import says: a plain sentence, the server's own words kept as the detail. */
function failureOutcome(error: unknown): Outcome {
  if (!isApiError(error) || error.offline) return { ok: false, text: errorText(error), detail: null };
  const detail = error.code ? `${error.code}: ${error.message}` : error.message;
  const key = SERVICE_FAILURES[error.code as keyof typeof SERVICE_FAILURES];
  if (key) return { ok: false, text: i18next.t(key), detail };
  if (error.status === 502 || (error.code ?? '').startsWith('matchService'))
    return { ok: false, text: i18next.t('matches.failure.unknown'), detail };
  return { ok: false, text: errorText(error), detail: null };
}

/**
 * The admin's "Sync matches" button on /events (docs/product.md, Fixture import): imports the club's fixtures from the
 * match service and shows what it did: counts, matches it could not import, matches no longer in the
 * feed. A failed import wrote nothing ('Failed to sync matches' with the counts and the
 * reason). The imported events reach the list through sync by themselves. Online only.
 */
export function SyncMatchesButton() {
  const { t } = useTranslation();
  const user = useUser();
  const { online } = useSyncStatus();
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  if (user.scope !== 'admin') return null;

  async function run() {
    if (busy) return;
    setBusy(true);
    try {
      setOutcome({ ok: true, result: await syncMatches() });
    } catch (error) {
      setOutcome(failureOutcome(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <button
        type="button"
        className="button button-secondary"
        onClick={() => void run()}
        disabled={!online || busy}
        title={online ? undefined : t('matches.offline')}
        aria-busy={busy}
      >
        {busy ? t('matches.syncing') : t('matches.sync')}
      </button>
      {outcome ? (
        <Modal title={t('matches.resultTitle')} size="small" onClose={() => setOutcome(null)}>
          <SyncOutcome outcome={outcome} />
          <div className="modal-actions">
            <button type="button" className="button button-primary" onClick={() => setOutcome(null)}>
              {t('common.close')}
            </button>
          </div>
        </Modal>
      ) : null}
    </>
  );
}

function SyncOutcome({ outcome }: { outcome: Outcome }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const counts = outcome.ok ? outcome.result : { created: 0, updated: 0, skipped: 0 };
  return (
    <div className="match-sync-result">
      {outcome.ok ? (
        <p className="muted">{t('matches.season', { season: outcome.result.season, teamId: outcome.result.teamId })}</p>
      ) : (
        <div role="alert">
          <p className="form-error">{t('matches.failed')}</p>
          <p className="match-sync-reason">{outcome.text}</p>
          {outcome.detail ? (
            <details className="match-sync-detail">
              <summary>{t('matches.failure.detail')}</summary>
              <code>{outcome.detail}</code>
            </details>
          ) : null}
        </div>
      )}
      <dl className="facts match-sync-counts" role="status">
        <div>
          <dt>{t('matches.created')}</dt>
          <dd>{counts.created}</dd>
        </div>
        <div>
          <dt>{t('matches.updated')}</dt>
          <dd>{counts.updated}</dd>
        </div>
        <div>
          <dt>{t('matches.skipped')}</dt>
          <dd>{counts.skipped}</dd>
        </div>
      </dl>
      {outcome.ok ? null : <p className="muted">{t('matches.nothingWritten')}</p>}
      {outcome.ok && outcome.result.errors.length > 0 ? (
        <section aria-labelledby="match-sync-errors">
          <h3 id="match-sync-errors">{t('matches.errorsTitle')}</h3>
          <ul className="match-sync-list">
            {outcome.result.errors.map((issue, index) => (
              <li key={`${issue.matchId ?? 'x'}-${index}`}>{messageText(issue.code, issue.message)}</li>
            ))}
          </ul>
        </section>
      ) : null}
      {outcome.ok && outcome.result.vanished.length > 0 ? (
        <section aria-labelledby="match-sync-vanished">
          <h3 id="match-sync-vanished">{t('matches.vanishedTitle')}</h3>
          <p className="muted">{t('matches.vanishedHint')}</p>
          <ul className="match-sync-list">
            {outcome.result.vanished.map((match) => (
              <li key={match.matchId}>
                {match.title} · {formatEventDate(match.date, language)}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}
