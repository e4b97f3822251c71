import { todayIn } from '@fankurve/shared/dates';
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSiteConfig } from '../../session/siteConfig.js';
import { useSyncStatus } from '../../data/index.js';
import { errorText, messageText } from '../../i18n/index.js';
import { Field } from '../../ui/Field.js';
import { fetchLeagueTeams, type LeagueTeam } from '../../api/matches.js';
import './matches.css';

/** The usual competitions at OpenLigaDB; any other shortcut can be typed. */
const LEAGUES = ['bl1', 'bl2', 'bl3', 'dfb'] as const;
const LEAGUE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$/;

/** Names compared as people type them: case and accents do not count. */
const fold = (text: string) => text.normalize('NFKD').replace(/\p{M}/gu, '').toLocaleLowerCase('de').trim();

type Lookup =
  | { state: 'idle' }
  | { state: 'loading' }
  | { state: 'done'; league: string; season: number; teams: LeagueTeam[] }
  | { state: 'failed'; text: string };

/**
 * Finds the team id of the club at the match service (OpenLigaDB) by name instead of typing a
 * number: a league (a short list plus free text) and a season (the year it starts, the current one
 * by default) list the teams; a name filters them; a click picks one. Online only. It renders no
 * form of its own, so it can sit inside the team configuration form (Enter searches, never submits).
 */
export function TeamFinder({ onPick }: { onPick: (team: { teamId: number; teamName: string }) => void }) {
  const { t } = useTranslation();
  const { online } = useSyncStatus();
  const today = todayIn(useSiteConfig().time_zone);
  const currentSeason = Number(today.slice(5, 7)) >= 7 ? Number(today.slice(0, 4)) : Number(today.slice(0, 4)) - 1;
  const [league, setLeague] = useState<string>('bl1');
  const [season, setSeason] = useState(String(currentSeason));
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<{ league?: string; season?: string }>({});
  const [lookup, setLookup] = useState<Lookup>({ state: 'idle' });
  const abort = useRef<AbortController | null>(null);
  const listId = useId();
  const resultsId = useId();

  useEffect(() => () => abort.current?.abort(), []);

  async function search() {
    const shortcut = league.trim();
    const year = Number(season.trim());
    const next = {
      ...(LEAGUE_PATTERN.test(shortcut) ? {} : { league: messageText('matchLeagueInvalid') }),
      ...(/^\d{4}$/.test(season.trim()) && year >= 2000 && year <= 2100 ? {} : { season: messageText('matchSeasonInvalid') }),
    };
    setProblem(next);
    if (next.league || next.season) return;
    abort.current?.abort();
    const controller = new AbortController();
    abort.current = controller;
    setLookup({ state: 'loading' });
    try {
      const { teams } = await fetchLeagueTeams(shortcut, year, controller.signal);
      setLookup({ state: 'done', league: shortcut, season: year, teams });
    } catch (error) {
      if (controller.signal.aborted) return;
      setLookup({ state: 'failed', text: errorText(error) });
    }
  }

  // Enter in a field searches; inside the team configuration form it must not submit that form.
  const onEnter = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    void search();
  };

  const shown = useMemo(() => {
    if (lookup.state !== 'done') return [];
    const wanted = fold(name);
    return wanted === ''
      ? lookup.teams
      : lookup.teams.filter((team) => fold(team.teamName).includes(wanted) || fold(team.shortName ?? '').includes(wanted));
  }, [lookup, name]);

  return (
    <div className="team-finder">
      <div className="field-row team-finder-fields">
        <Field
          label={t('matches.league')}
          hint={t('matches.leagueHint')}
          error={problem.league}
          value={league}
          list={listId}
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          onChange={(event) => setLeague(event.target.value)}
          onKeyDown={onEnter}
        />
        <Field
          label={t('matches.seasonField')}
          error={problem.season}
          value={season}
          inputMode="numeric"
          maxLength={4}
          onChange={(event) => setSeason(event.target.value)}
          onKeyDown={onEnter}
        />
        <Field
          label={t('matches.nameFilter')}
          type="search"
          value={name}
          autoComplete="off"
          onChange={(event) => setName(event.target.value)}
          onKeyDown={onEnter}
        />
      </div>
      <datalist id={listId}>
        {LEAGUES.map((shortcut) => (
          <option key={shortcut} value={shortcut}>
            {t(`matches.leagues.${shortcut}`)}
          </option>
        ))}
      </datalist>
      <div className="team-finder-actions">
        <button
          type="button"
          className="button button-secondary"
          onClick={() => void search()}
          disabled={!online || lookup.state === 'loading'}
          aria-controls={resultsId}
        >
          {lookup.state === 'loading' ? t('matches.loadingTeams') : t('matches.showTeams')}
        </button>
        {online ? null : <small className="muted">{t('matches.finderOffline')}</small>}
      </div>
      <div id={resultsId} aria-live="polite">
        {lookup.state === 'failed' ? (
          <p className="form-error" role="alert">
            {lookup.text}
          </p>
        ) : null}
        {lookup.state === 'done' ? (
          lookup.teams.length === 0 ? (
            <p className="muted">{t('matches.noTeams')}</p>
          ) : shown.length === 0 ? (
            <p className="muted">{t('matches.noTeamMatches')}</p>
          ) : (
            <ul
              className="team-finder-list"
              aria-label={t('matches.teamsLabel', { league: lookup.league, season: lookup.season })}
            >
              {shown.map((team) => (
                <li key={team.teamId}>
                  <button
                    type="button"
                    className="team-finder-team"
                    onClick={() => onPick({ teamId: team.teamId, teamName: team.teamName })}
                  >
                    <span className="team-finder-name">{team.teamName}</span>
                    <span className="team-finder-id">{t('matches.teamId', { id: team.teamId })}</span>
                  </button>
                </li>
              ))}
            </ul>
          )
        ) : null}
      </div>
    </div>
  );
}
