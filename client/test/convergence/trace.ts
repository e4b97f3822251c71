import type { DeviceName } from './scenario.js';

/*
 * With CONVERGENCE_TRACE=1 a run's log also shows the attendee rows each device pushes (with the
 * server state it assumed), the conflicts the server answers, and the rows it pulls. Devices are
 * told apart by their session token.
 */

export type TraceSink = (device: DeviceName, kind: 'push' | 'answer' | 'pull', docs: Doc[]) => void;
type Doc = Record<string, unknown>;

export const TRACING = process.env.CONVERGENCE_TRACE === '1';
/** A pushed row's assumed master state, kept on its new state for the log. */
const BASE = '__base';

/** Wraps the global fetch (which the test devices call) once; `sink()` says where lines go now. */
export function traceSyncTraffic(deviceOfToken: (token: string) => DeviceName | undefined, sink: () => TraceSink | null): void {
  const original = globalThis.fetch;
  globalThis.fetch = async (input, init) => {
    const response = await original(input, init);
    const url = String(input);
    const device = deviceOfToken(String(new Headers(init?.headers).get('authorization')).replace('Bearer ', ''));
    const write = sink();
    if (!write || !device || !url.includes('/api/sync/attendees/') || !response.ok) return response;
    const answer = (await response.clone().json()) as Doc[] | { documents: Doc[] };
    if (url.endsWith('/push')) {
      const rows = JSON.parse(String(init?.body)) as { newDocumentState: Doc; assumedMasterState?: Doc | null }[];
      write(
        device,
        'push',
        rows.map((row) => ({ ...row.newDocumentState, [BASE]: row.assumedMasterState ?? null })),
      );
      write(device, 'answer', answer as Doc[]);
    } else write(device, 'pull', (answer as { documents: Doc[] }).documents);
    return response;
  };
}

/** One document in a line: label, deleted or status, the guest name, the flags set (and a pushed row's base). */
export function briefDoc(doc: Doc, label: (id: string) => string): string {
  const name = label(String(doc.id));
  const state = (d: Doc) => {
    if (d._deleted) return 'deleted';
    const flags = ['needs_ticket', 'has_ticket', 'needs_transport', 'bought', 'paid'].filter((flag) => d[flag] === true);
    return `${d.status}${d.guest_name ? ` "${d.guest_name}"` : ''} [${flags.join(' ')}]${d.seq ? ` seq ${d.seq}` : ''}`;
  };
  if (!(BASE in doc)) return `${name} ${state(doc)}`;
  const base = doc[BASE] as Doc | null;
  return `${name} ${state(doc)} (base: ${base ? state(base) : 'none'})`;
}
