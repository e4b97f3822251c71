import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

/*
 * A local stand-in for OpenLigaDB (FOOTBALL_DATA_URL) for the import tests and the browser test: a
 * real node:http server that answers recorded answers (server/test/fixtures/openligadb/*.json,
 * hand-made in the service's real shape: a season of 1. FC Union Berlin, OpenLigaDB team 80, in the
 * 1. Bundesliga and the DFB-Pokal 2025/26, and the teams of the Bundesliga) and, on demand, failures:
 * an error status, garbage, a redirect, a dropped connection or no answer at all. It records every
 * path asked.
 */

export const FIXTURE_DIR = path.join(import.meta.dirname, 'fixtures', 'openligadb');

/** The recorded season's team and year. */
export const RECORDED_TEAM_ID = 80;
export const RECORDED_SEASON = 2025;

/** A recorded answer, parsed (a fresh copy each time, so a test may change it). */
export function recorded<T = any>(name: string): T {
  return JSON.parse(fs.readFileSync(path.join(FIXTURE_DIR, `${name}.json`), 'utf8')) as T;
}

export type FixtureAnswer =
  | { status?: number; json: unknown }
  | { status?: number; text: string; contentType?: string }
  /** Redirects (302 unless told) to `location`, a path or an absolute URL. */
  | { status?: number; redirect: string }
  /** Closes the connection without an answer. */
  | { drop: true }
  /** Never answers (the client's timeout must end the call). */
  | { hang: true };

export interface FixtureServer {
  url: string;
  /** Paths asked, in order (e.g. `/getmatchesbyteamid/80/16/37`). */
  requests: string[];
  /** Answers paths that start with `prefix` (the longest matching prefix wins); others get 404. */
  answer(prefix: string, answer: FixtureAnswer | ((path: string) => FixtureAnswer)): void;
  close(): Promise<void>;
}

/** `unref`: the server keeps no test process alive (for a server a module starts once and never closes). */
export async function startFixtureServer(options: { port?: number; unref?: boolean } = {}): Promise<FixtureServer> {
  const routes = new Map<string, FixtureAnswer | ((path: string) => FixtureAnswer)>();
  const requests: string[] = [];
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    const pathname = new URL(req.url ?? '/', 'http://fixture').pathname;
    requests.push(pathname);
    const prefix = [...routes.keys()].filter((p) => pathname.startsWith(p)).sort((a, b) => b.length - a.length)[0];
    const route = prefix === undefined ? undefined : routes.get(prefix);
    const answer: FixtureAnswer =
      route === undefined ? { status: 404, text: '' } : typeof route === 'function' ? route(pathname) : route;
    if ('hang' in answer) {
      hanging.add(res);
      return;
    }
    if ('drop' in answer) {
      req.socket.destroy();
      return;
    }
    if ('redirect' in answer) {
      res.writeHead(answer.status ?? 302, { Location: answer.redirect, 'Content-Length': 0 });
      res.end();
      return;
    }
    const body = 'json' in answer ? JSON.stringify(answer.json) : answer.text;
    const contentType =
      'json' in answer ? 'application/json; charset=utf-8' : (answer.contentType ?? 'text/plain; charset=utf-8');
    res.writeHead(answer.status ?? 200, { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(body) });
    res.end(body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  if (options.unref) server.unref();
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    answer: (prefix, answer) => void routes.set(prefix, answer),
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The recorded answers moved to another season and team, for the browser test, whose server runs
 * on today's date and the default team: every year of the season's dates (and of the league names)
 * moves by the difference of seasons, and the recorded team's id becomes `teamId`.
 */
export function asSeasonOf<T>(answer: T, season: number, teamId: number = RECORDED_TEAM_ID): T {
  const shift = season - RECORDED_SEASON;
  const moveYears = (value: string) =>
    value
      .replace(
        /\b(20\d\d)-(\d\d)-(\d\d)T/g,
        (_, year: string, month: string, day: string) => `${Number(year) + shift}-${month}-${day}T`,
      )
      .replace(/\b(20\d\d)\/(20\d\d)\b/g, (_, a: string, b: string) => `${Number(a) + shift}/${Number(b) + shift}`);
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string') return moveYears(value);
    if (Array.isArray(value)) return value.map(walk);
    if (value && typeof value === 'object') {
      return Object.fromEntries(
        Object.entries(value).map(([key, child]) => {
          if (key === 'leagueSeason' && typeof child === 'number') return [key, child + shift];
          if (key === 'teamId' && child === RECORDED_TEAM_ID) return [key, teamId];
          return [key, walk(child)];
        }),
      );
    }
    return value;
  };
  return walk(answer) as T;
}

/** The year today's season started (July to June) in a time zone: the season the import asks for. */
export function currentSeason(timeZone = 'Europe/Berlin', now = new Date()): number {
  const [year, month] = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit' })
    .format(now)
    .split('-')
    .map(Number);
  return month! >= 7 ? year! : year! - 1;
}

let shared: Promise<FixtureServer> | null = null;

/**
 * Points an app at one local stand-in for the match service, started once per test process and
 * never closed (it keeps no process alive): the first recorded matches as today's season of
 * whatever team is asked, and the recorded teams of every league. For tests that must not reach the
 * real service but are not about the import (the permission matrix).
 */
export async function useLocalMatchService(config: { footballDataUrl: string; clubTimeZone: string }): Promise<FixtureServer> {
  shared ??= startFixtureServer({ unref: true }).then((server) => {
    server.answer('/getmatchesbyteamid/', (pathname) => {
      const teamId = Number(pathname.split('/')[2]);
      return {
        json: asSeasonOf(recorded<unknown[]>('matches-team-80-2025').slice(0, 3), currentSeason(config.clubTimeZone), teamId),
      };
    });
    server.answer('/getavailableteams/', { json: recorded('teams-bl1-2025') });
    return server;
  });
  const server = await shared;
  config.footballDataUrl = server.url;
  return server;
}
