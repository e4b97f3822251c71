import { Expectations, type Violation } from './model.js';
import type { Scenario } from './scenario.js';
import { briefDoc, TRACING } from './trace.js';
import type { World } from './world.js';

/** One run's state: the expectations its writes promise, the ids chosen at run time, and its log. */
export class RunContext {
  readonly log: string[] = [];
  readonly expected = new Expectations();
  /** Errors other than a local rule's refusal that the data layer's writes threw. */
  readonly deviceErrors: Violation[] = [];
  /** Guest handle of the scenario → the document id its device chose. */
  readonly guestIds = new Map<number, string>();
  /** The run's bus: its transport option and the passengers' attendee rows (by PASSENGERS index). */
  bus: { transportId: string; eventId: string; passengerRows: string[] } | null = null;
  /** How often each kind of outcome happened (for the statistics of many runs). */
  readonly counts = new Map<string, number>();
  private readonly labels = new Map<string, string>();
  private readonly started = Date.now();

  constructor(
    readonly world: World,
    readonly scenario: Scenario,
    readonly eventIds: string[],
  ) {
    eventIds.forEach((id, index) => this.labels.set(id, `e${index}`));
    if (TRACING) world.traceSink = (device, kind, docs) => this.traceSync(device, kind, docs);
  }

  private traceSync(device: string, kind: string, docs: Record<string, unknown>[]): void {
    const ours = docs.filter((doc) => this.eventIds.includes(String(doc.event_id)) || this.labels.has(String(doc.id)));
    if (ours.length > 0 || kind === 'push')
      this.note(`    ${device} ${kind}: ${ours.map((doc) => briefDoc(doc, (id) => this.label(id))).join('; ')}`);
  }

  count(kind: string): void {
    this.counts.set(kind, (this.counts.get(kind) ?? 0) + 1);
  }

  note(text: string): void {
    this.log.push(`${String(Date.now() - this.started).padStart(5)}ms  ${text}`);
  }

  /** A readable name for a document or event id: anna@e0 (own row; a later one anna@e0'), g2 (guest 2). */
  label(id: string): string {
    return this.labels.get(id) ?? `?…${id.slice(-6)}`;
  }

  nameDocument(id: string, name: string): void {
    if (this.labels.has(id)) return;
    let unique = name;
    while ([...this.labels.values()].includes(unique)) unique += "'";
    this.labels.set(id, unique);
  }
}
