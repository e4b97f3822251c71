/**
 * A new device's first sync without a browser: every replicated collection pulled from checkpoint null
 * until an empty batch, counting the bytes on the wire (as received) and after decompression.
 */
import { SYNC_SCHEMAS } from '@fankurve/shared';
import { request } from './http.js';

export const PULL_LIMIT = 1000;

export interface PullFigures {
  collection: string;
  version: number;
  limit: number;
  requests: number;
  documents: number;
  tombstones: number;
  wireBytes: number;
  bodyBytes: number;
  ms: number;
  encodings: string[];
}

export interface PullsFigures {
  collections: PullFigures[];
  total: { requests: number; documents: number; wireBytes: number; bodyBytes: number; ms: number };
}

interface PullAnswer {
  documents: { _deleted?: boolean }[];
  checkpoint: unknown;
}

async function pullCollection(baseUrl: string, token: string, collection: string, version: number): Promise<PullFigures> {
  const url = `${baseUrl}/api/sync/${collection}/${version}/pull`;
  const headers = { authorization: `Bearer ${token}`, 'accept-encoding': 'br, gzip' };
  const figures: PullFigures = {
    collection,
    version,
    limit: PULL_LIMIT,
    requests: 0,
    documents: 0,
    tombstones: 0,
    wireBytes: 0,
    bodyBytes: 0,
    ms: 0,
    encodings: [],
  };
  const started = performance.now();
  let checkpoint: unknown = null;
  for (;;) {
    const response = await request(url, { method: 'POST', headers, body: { checkpoint, limit: figures.limit } });
    // A server that caps lower than PULL_LIMIT refuses the limit: go on with the protocol's default size.
    if (response.status === 400 && figures.requests === 0 && figures.limit === PULL_LIMIT) {
      figures.limit = 200;
      continue;
    }
    if (response.status !== 200)
      throw new Error(`pull ${collection} answered ${response.status}: ${response.body.toString().slice(0, 200)}`);
    figures.requests++;
    figures.wireBytes += response.wire.length;
    figures.bodyBytes += response.body.length;
    if (!figures.encodings.includes(response.encoding)) figures.encodings.push(response.encoding);
    const answer = JSON.parse(response.body.toString('utf8')) as PullAnswer;
    if (answer.documents.length === 0) break;
    figures.documents += answer.documents.length;
    figures.tombstones += answer.documents.filter((doc) => doc._deleted).length;
    checkpoint = answer.checkpoint;
    if (figures.requests > 10_000) throw new Error(`pull ${collection} never ended`);
  }
  figures.ms = performance.now() - started;
  return figures;
}

export async function benchPulls(baseUrl: string, token: string): Promise<PullsFigures> {
  const collections: PullFigures[] = [];
  for (const [name, schema] of Object.entries(SYNC_SCHEMAS)) {
    collections.push(await pullCollection(baseUrl, token, name, schema.version));
  }
  const sum = (key: 'requests' | 'documents' | 'wireBytes' | 'bodyBytes' | 'ms') => collections.reduce((a, c) => a + c[key], 0);
  return {
    collections,
    total: {
      requests: sum('requests'),
      documents: sum('documents'),
      wireBytes: sum('wireBytes'),
      bodyBytes: sum('bodyBytes'),
      ms: sum('ms'),
    },
  };
}
