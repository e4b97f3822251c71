import type { MessageCode } from './registry.js';

/*
 * The answer of the fixture import (POST /api/events/sync-matches; docs/architecture.md, "Fixture
 * import"): written by server/src/matches/importMatches.ts, shown by the admin's sync button.
 */

/** One problem of an import that did not stop it (a match that could not be imported). */
export interface MatchImportIssue {
  code: MessageCode;
  /** The English text with the details after `: ` (the client translates the part before by code). */
  message: string;
  matchId: number | null;
}

/** An imported match of the season that the feed no longer lists (its event is kept). */
export interface VanishedMatch {
  matchId: number;
  eventId: string;
  title: string;
  date: string;
}

export interface MatchImportResult {
  /** The season imported, `2025/26`. */
  season: string;
  teamId: number;
  created: number;
  updated: number;
  skipped: number;
  errors: MatchImportIssue[];
  vanished: VanishedMatch[];
}
