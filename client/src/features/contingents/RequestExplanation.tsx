import type { LoyaltyBreakdown } from '@fankurve/shared/rules/allocationReasons';
import type { RequestExplanation as Explanation } from '@fankurve/shared';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { formatInstant } from '../../i18n/dates.js';
import { currentLanguage } from '../../i18n/index.js';

/** A place as the language says it: `7th` in English, `7` in German ("Platz 7"). */
export const nth = (t: TFunction, place: number): string => t('contingents.explain.nth', { count: place, ordinal: true });

/**
 * The sum behind points: "4 away matches in 2025/26 + 6 away matches in 2024/25 + 2 points adjusted
 * by an admin" (`short`: "4 (2025/26) + 6 (2024/25) + 2 adjustment", the admin's queue). Every
 * counted season is named, a 0 too; a negative adjustment is subtracted; none is left out.
 */
function breakdownParts(t: TFunction, loyalty: LoyaltyBreakdown, short: boolean): string {
  const seasons = loyalty.seasons.map((season) =>
    short
      ? t('contingents.queue.breakdownSeason', { count: season.away_matches, season: season.season })
      : t('contingents.explain.season', { count: season.away_matches, season: season.season }),
  );
  const amount = Math.abs(loyalty.adjustment);
  const adjustment = short
    ? t('contingents.queue.breakdownAdjustment', { count: amount })
    : t('contingents.explain.adjustment', { count: amount });
  return seasons.join(' + ') + (loyalty.adjustment === 0 ? '' : ` ${loyalty.adjustment < 0 ? '−' : '+'} ${adjustment}`);
}

/** Points as a sum: "Treuepunkte: 12 = …" (`short`: "12 = …"; `host`: a guest's line, "Deine Treuepunkte: 12 = …"). */
export function breakdownText(t: TFunction, loyalty: LoyaltyBreakdown, variant: 'own' | 'host' | 'short' = 'own'): string {
  const parts = breakdownParts(t, loyalty, variant === 'short');
  const key =
    variant === 'short'
      ? 'contingents.queue.breakdown'
      : variant === 'host'
        ? 'contingents.explain.hostPoints'
        : 'contingents.explain.points';
  return t(key, { total: loyalty.points, parts });
}

/**
 * The sentence of a place: "Platz 7 von 12 Anfragen, 5 Karten: du stehst auf der Warteliste an
 * Platz 2." / "7th of 12 requests for 5 tickets: you are 2nd on the waiting list." (the shared rule
 * `placeInAllocation` gives its parts); for a guest, said of them.
 */
export function placeSentence(t: TFunction, place: NonNullable<Explanation['place']>, guestName?: string): string {
  const outcome = guestName
    ? t(`contingents.explain.guest.${place.outcome}`, {
        name: guestName,
        place: place.waiting_place === null ? '' : nth(t, place.waiting_place),
      })
    : t(`contingents.explain.own.${place.outcome}`, {
        place: place.waiting_place === null ? '' : nth(t, place.waiting_place),
      });
  return t('contingents.explain.sentence', {
    place: t('contingents.explain.place', { count: place.requests, place: nth(t, place.place) }),
    tickets: t('contingents.explain.tickets', { count: place.tickets }),
    outcome,
  });
}

/**
 * Why the member's own request (or their guest's) stands where it does (docs/product.md, Ticket
 * contingents, "Allocations anyone can follow"): the place as a sentence, a pin or exclusion with
 * the admin's note, and — one tap away — the points with their breakdown (a guest ranks by the
 * member's), the rule of the order and the request time. Only the member's own figures: the server
 * sends nothing else (server/src/domain/tickets/contingentView.ts). Shown offline as last read.
 */
export function RequestExplanation({ explanation, guestName }: { explanation: Explanation; guestName?: string }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const { place, reason, note, loyalty } = explanation;
  return (
    <div className="contingent-explanation">
      {place ? <p className="contingent-sentence">{placeSentence(t, place, guestName)}</p> : null}
      {reason === 'pinned' || reason === 'excluded' ? (
        <p className={`contingent-flag contingent-flag-${reason}`}>
          {t(`contingents.explain.${reason}`)}
          {note ? (
            <>
              {' '}
              <span className="contingent-note">{t('contingents.explain.note', { note })}</span>
            </>
          ) : null}
        </p>
      ) : null}
      <details className="contingent-why">
        <summary>{t('contingents.explain.why')}</summary>
        <ul>
          <li>{breakdownText(t, loyalty, guestName ? 'host' : 'own')}</li>
          <li>{t(guestName ? 'contingents.explain.ruleGuest' : 'contingents.explain.ruleMember')}</li>
          <li>{t('contingents.explain.requestedAt', { date: formatInstant(explanation.requested_at, language) })}</li>
        </ul>
      </details>
    </div>
  );
}
