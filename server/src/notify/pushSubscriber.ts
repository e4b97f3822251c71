import type { Agent } from 'node:https';
import type { Config } from '../config.js';
import type { Commit, Store } from '../db/store.js';
import type { DomainEvent } from '../domain/domainEvents.js';
import { DeliveryQueue } from './delivery.js';
import type { NotifyHandlers } from './handlers.js';
import { deliveriesFor } from './recipients.js';
import type { PushSettings } from './subscriptions.js';
import { logVapid, resolveVapid, type VapidIdentity } from './vapid.js';

/** Commits waiting to be turned into messages at most. */
const COMMIT_QUEUE_MAX = 1_000;

const RELEVANT = new Set<DomainEvent['type']>([
  'event.created',
  'event.changed',
  'ticket.bought',
  'request.accepted',
  'transferStatus.changed',
  'mention.created',
  'comment.added',
  'user.registered',
  'request.made',
  'offer.made',
  'offer.accepted',
  'reminder.sent',
  'payment.reminded',
  'poll.created',
]);

/** Whether an event can notify anyone: one of the list, or one a collection's own handler takes. */
function isRelevant(event: DomainEvent, handlers: NotifyHandlers): boolean {
  if (handlers[event.type]) return true;
  if (!RELEVANT.has(event.type)) return false;
  if (event.type === 'event.changed') return event.markedUpdated;
  if (event.type === 'transferStatus.changed') return event.to === 'reserved' || event.to === 'waiting_list';
  // A registration by the member themselves (an account an admin creates needs no approval, nor one an invite approved).
  if (event.type === 'user.registered') return event.actorId === event.userId && !event.active;
  return true;
}

/**
 * Web push's commit-bus subscriber (docs/architecture.md, "Web Push"): notes the commits whose domain
 * events concern someone, turns them into messages one commit at a time after the commit's publish
 * returns (recipients.ts) and hands those to the delivery queue (delivery.ts). Wired in deps.ts.
 */
export class PushNotifier {
  private commits: DomainEvent[][] = [];
  private resolving = false;
  private stopped = false;
  private idleWaiters: (() => void)[] = [];
  private readonly delivery: DeliveryQueue;

  constructor(
    private readonly store: Store,
    readonly identity: VapidIdentity,
    private readonly options: { publicUrl: string; extraHosts: readonly string[]; handlers: NotifyHandlers },
  ) {
    this.delivery = new DeliveryQueue(store, identity, () => this.checkIdle());
  }

  static subscribedTo(store: Store, config: Config, handlers: NotifyHandlers): PushNotifier {
    const identity = resolveVapid(config);
    logVapid(identity);
    const notifier = new PushNotifier(store, identity, {
      publicUrl: config.publicUrl,
      extraHosts: config.pushEndpointHosts,
      handlers,
    });
    if (!identity.configured) return notifier;
    const unsubscribe = store.commits.subscribe((commit) => notifier.take(commit));
    store.commits.onClose(() => {
      unsubscribe();
      notifier.stop();
    });
    return notifier;
  }

  /** What the routes need: whether push works and the key to subscribe with. */
  get settings(): PushSettings {
    return { configured: this.identity.configured, publicKey: this.identity.publicKey, extraHosts: this.options.extraHosts };
  }

  /** The TLS agent for push services (tests replace it with one that trusts their local push service). */
  get agent(): Agent {
    return this.delivery.agent;
  }

  set agent(agent: Agent) {
    this.delivery.agent = agent;
  }

  /** How long a silent push service may take (tests shorten it). */
  get timeoutMs(): number {
    return this.delivery.timeoutMs;
  }

  set timeoutMs(ms: number) {
    this.delivery.timeoutMs = ms;
  }

  /** Notes a commit's events that concern someone; the work happens after the commit's publish returns. */
  take(commit: Commit): void {
    if (this.stopped || !this.identity.configured) return;
    const events = commit.events.filter((event) => isRelevant(event, this.options.handlers));
    if (events.length === 0) return;
    if (this.commits.length >= COMMIT_QUEUE_MAX) {
      console.warn('Web push: too many commits waiting; the notifications of one are dropped');
      return;
    }
    this.commits.push(events);
    if (!this.resolving) void this.resolveAll();
  }

  /** Resolves when every noted commit has been turned into messages and every message sent (tests). */
  idle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Shutdown: nothing new is taken; waiting messages are dropped, running ones end with their timeout. */
  stop(): void {
    this.stopped = true;
    this.commits = [];
    this.delivery.stop();
    this.checkIdle();
  }

  private isIdle(): boolean {
    return !this.resolving && this.commits.length === 0 && this.delivery.idle;
  }

  private checkIdle(): void {
    if (!this.isIdle()) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  private async resolveAll(): Promise<void> {
    this.resolving = true;
    try {
      while (!this.stopped && this.commits.length > 0) {
        const events = this.commits.shift()!;
        try {
          const deliveries = await deliveriesFor(this.store, events, this.options, () => this.stopped);
          this.delivery.enqueue(deliveries);
        } catch (error) {
          if (!this.stopped) console.error('Web push: could not work out the notifications of a commit:', error);
        }
      }
    } finally {
      this.resolving = false;
      this.checkIdle();
    }
  }
}
