import { placesOf } from '@fankurve/shared/rules/loyalty';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  fetchAdjustments,
  fetchMyLoyalty,
  fetchRanking,
  type LoyaltyAdjustment,
  type MyLoyalty,
  type RankingRow,
} from '../../api/loyalty.js';
import { formatInstant } from '../../i18n/dates.js';
import { currentLanguage, errorText } from '../../i18n/index.js';
import { isFormerMember, shownName } from '../../i18n/memberNames.js';
import { useUser } from '../../session/session.js';
import { Loading } from '../../ui/Loading.js';
import { SlicedItems, SlicesRoom, useRenderSlices } from '../../ui/renderSlices.js';
import { NeedsConnection, useOnline } from '../../ui/NeedsConnection.js';
import { StatsLink } from '../stats/index.js';
import { AdjustDialog } from './AdjustDialog.js';
import { SeasonChart } from './SeasonChart.js';
import './loyalty.css';

interface Loaded {
  userId: string;
  ranking: RankingRow[];
  my: MyLoyalty;
  /** Admins only. */
  adjustments: LoyaltyAdjustment[];
  /** When it was loaded (ISO), shown while offline. */
  at: string;
}

/**
 * The last answer of this app session, so the page still reads offline after it was opened once
 * (kept in memory only: it holds every member's figures, and a reload or sign-out forgets it).
 */
let lastLoaded: Loaded | null = null;

async function load(admin: boolean, userId: string, signal: AbortSignal): Promise<Loaded> {
  const [ranking, my, adjustments] = await Promise.all([
    fetchRanking(signal),
    fetchMyLoyalty(signal),
    admin ? fetchAdjustments(signal) : Promise.resolve(null),
  ]);
  return {
    userId,
    ranking: ranking.ranking,
    my: { points: my.points, place: my.place, seasons: my.seasons },
    adjustments: adjustments?.adjustments ?? [],
    at: new Date().toISOString(),
  };
}

/**
 * /allesfahrer (docs/product.md, Screens and Loyalty): every member's loyalty points, highest first,
 * the member's own place and their away matches per season; admins adjust a member's points. Read
 * over REST: online it loads afresh; offline it shows the answer loaded earlier in this session,
 * or says it needs a connection (docs/architecture.md, Online-only pages).
 */
export function LoyaltyPage() {
  const { t } = useTranslation();
  const user = useUser();
  const admin = user.scope === 'admin';
  const online = useOnline();
  const [data, setData] = useState<Loaded | null>(() => (lastLoaded?.userId === user.id ? lastLoaded : null));
  const [error, setError] = useState<string | null>(null);
  const [version, setVersion] = useState(0);

  useEffect(() => {
    if (!online) return;
    const controller = new AbortController();
    load(admin, user.id, controller.signal).then(
      (loaded) => {
        lastLoaded = loaded;
        setData(loaded);
        setError(null);
      },
      (failure: unknown) => {
        if (!controller.signal.aborted) setError(errorText(failure));
      },
    );
    return () => controller.abort();
  }, [online, admin, user.id, version]);

  if (!data && !online) return <NeedsConnection title={t('loyalty.title')}>{null}</NeedsConnection>;
  if (!data && error) {
    return (
      <section className="page">
        <h1>{t('loyalty.title')}</h1>
        <p className="form-error" role="alert">{`${t('loyalty.loadFailed')} ${error}`}</p>
      </section>
    );
  }
  if (!data) return <Loading />;
  return <Ranking data={data} online={online} admin={admin} onChanged={() => setVersion((v) => v + 1)} />;
}

interface RankingProps {
  data: Loaded;
  online: boolean;
  admin: boolean;
  onChanged: () => void;
}

function Ranking({ data, online, admin, onChanged }: RankingProps) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const titleId = useId();
  const chartId = useId();
  const tableId = useId();
  const [adjusting, setAdjusting] = useState<RankingRow | null>(null);
  const slices = useRenderSlices<HTMLTableSectionElement>(data.ranking.length);
  const places = placesOf(data.ranking);
  const countedSeasons = data.my.seasons.filter((season) => season.counted).length;
  const adjustments = new Map(data.adjustments.map((adjustment) => [adjustment.user_id, adjustment]));
  const signed = (points: number) => (points > 0 ? `+${points}` : String(points));

  return (
    <section className="page loyalty-page" aria-labelledby={titleId}>
      <h1 id={titleId}>{t('loyalty.title')}</h1>
      {online ? null : (
        <p className="offline-hint" role="status">
          {t('loyalty.offlineCopy', { time: formatInstant(data.at, language) })}
        </p>
      )}
      <p className="loyalty-own" data-testid="loyalty-own-place">
        {data.my.place === null ? (
          t('loyalty.notRanked')
        ) : (
          <>
            <strong>{t('loyalty.ownPlace', { place: data.my.place, total: data.ranking.length })}</strong>
            <span className="loyalty-own-points">{t('loyalty.ownPoints', { count: data.my.points })}</span>
          </>
        )}
      </p>
      <p className="muted loyalty-intro">{t('loyalty.intro', { count: countedSeasons })}</p>
      <p className="loyalty-intro">
        <StatsLink variant="inline" />
      </p>

      <h2 id={chartId} className="section-title">
        {t('loyalty.chartTitle')}
      </h2>
      <SeasonChart seasons={data.my.seasons} />

      <h2 id={tableId} className="section-title">
        {t('loyalty.rankingTitle')}
      </h2>
      {data.ranking.length === 0 ? (
        <p className="muted">{t('loyalty.empty')}</p>
      ) : (
        <div className="ranking-scroll">
          <table className="ranking-table" aria-labelledby={tableId} data-testid="ranking-table">
            <thead>
              <tr>
                <th scope="col" className="num">
                  {t('loyalty.place')}
                </th>
                <th scope="col">{t('loyalty.name')}</th>
                <th scope="col" className="num">
                  {t('loyalty.points')}
                </th>
                <th scope="col" className="num">
                  <span className="ranking-long">{t('loyalty.awayMatches')}</span>
                  <abbr className="ranking-short" title={t('loyalty.awayMatches')}>
                    {t('loyalty.awayMatchesShort')}
                  </abbr>
                </th>
              </tr>
            </thead>
            <tbody ref={slices.listRef}>
              <SlicedItems items={data.ranking} slices={slices} keyOf={(row) => row.user_id}>
                {(row, index) => {
                  const own = row.user_id === data.userId;
                  const adjustment = adjustments.get(row.user_id);
                  return (
                    <tr className={own ? 'ranking-own' : undefined} data-own={own ? 'true' : undefined}>
                      <td className="num">{places[index]}</td>
                      <th scope="row" className="ranking-name">
                        {shownName(row.username)}
                        {own ? <span className="badge ranking-you">{t('loyalty.you')}</span> : null}
                        {admin && !isFormerMember(row.username) ? (
                          <div className="ranking-admin">
                            {adjustment && adjustment.points !== 0 ? (
                              <small className="muted ranking-adjustment">
                                {t('loyalty.adjustment', { points: signed(adjustment.points) })}
                                {adjustment.note ? ` · ${adjustment.note}` : ''}
                              </small>
                            ) : null}
                            <button
                              type="button"
                              className="button button-small button-secondary"
                              disabled={!online}
                              aria-label={t('loyalty.adjustFor', { username: shownName(row.username) })}
                              onClick={() => setAdjusting(row)}
                            >
                              {t('loyalty.adjust')}
                            </button>
                          </div>
                        ) : null}
                      </th>
                      <td className="num ranking-points">{row.points}</td>
                      <td className="num">{row.away_matches}</td>
                    </tr>
                  );
                }}
              </SlicedItems>
            </tbody>
          </table>
          <SlicesRoom slices={slices} />
        </div>
      )}
      {adjusting ? (
        <AdjustDialog
          row={adjusting}
          current={adjustments.get(adjusting.user_id)}
          onClose={() => setAdjusting(null)}
          onSaved={() => {
            setAdjusting(null);
            onChanged();
          }}
        />
      ) : null}
    </section>
  );
}
