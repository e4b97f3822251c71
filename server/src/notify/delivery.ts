import https from 'node:https';
import webpush from 'web-push';
import type { Store } from '../db/store.js';
import type { VapidIdentity } from './vapid.js';

/** Messages sent at once; the rest wait in the queue. */
export const PUSH_CONCURRENCY = 8;
/** A push service that stays silent this long (connecting, TLS, answer) fails the message. */
export const PUSH_TIMEOUT_MS = 10_000;
/** Messages waiting at most; beyond that new ones are dropped (and logged), so a slow push service cannot pile up work. */
export const PUSH_QUEUE_MAX = 5_000;
/** How long a push service keeps a message for a device that is offline (3 days). */
const PUSH_TTL_SECONDS = 3 * 24 * 60 * 60;

/** One message for one device. */
export interface Delivery {
  subscriptionId: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  payload: string;
}

/**
 * The delivery queue of web push (docs/architecture.md, "Web Push", sending): sends messages with
 * the web-push package (VAPID, aes128gcm), after the commit and outside any transaction, a few at a
 * time with a timeout; a full queue drops messages rather than grow. A subscription the push
 * service answers 404 or 410 (gone) is removed.
 */
export class DeliveryQueue {
  /** The TLS agent for push services (tests replace it with one that trusts their local push service). */
  agent: https.Agent = new https.Agent({ keepAlive: true, maxSockets: PUSH_CONCURRENCY });
  /** How long a silent push service may take (tests shorten it). */
  timeoutMs = PUSH_TIMEOUT_MS;
  private queue: Delivery[] = [];
  private active = 0;
  private stopped = false;

  constructor(
    private readonly store: Store,
    private readonly identity: VapidIdentity,
    /** Called whenever a message has been sent or has failed. */
    private readonly onSettled: () => void,
  ) {}

  /** Nothing waiting, nothing being sent. */
  get idle(): boolean {
    return this.queue.length === 0 && this.active === 0;
  }

  enqueue(deliveries: Delivery[]): void {
    if (this.stopped) return;
    const room = PUSH_QUEUE_MAX - this.queue.length;
    if (deliveries.length > room) console.warn(`Web push: queue full, ${deliveries.length - Math.max(room, 0)} messages dropped`);
    this.queue.push(...deliveries.slice(0, Math.max(room, 0)));
    this.pump();
  }

  /** Shutdown: waiting messages are dropped, running ones end with their timeout. */
  stop(): void {
    this.stopped = true;
    this.queue = [];
    this.agent.destroy();
  }

  private pump(): void {
    while (!this.stopped && this.active < PUSH_CONCURRENCY && this.queue.length > 0) {
      const delivery = this.queue.shift()!;
      this.active++;
      void this.send(delivery).finally(() => {
        this.active--;
        this.pump();
        this.onSettled();
      });
    }
  }

  private async send(delivery: Delivery): Promise<void> {
    const identity = this.identity;
    try {
      await webpush.sendNotification(
        { endpoint: delivery.endpoint, keys: { p256dh: delivery.p256dh, auth: delivery.auth } },
        delivery.payload,
        {
          vapidDetails: { subject: identity.subject!, publicKey: identity.publicKey!, privateKey: identity.privateKey! },
          TTL: PUSH_TTL_SECONDS,
          urgency: 'normal',
          contentEncoding: 'aes128gcm',
          timeout: this.timeoutMs,
          agent: this.agent,
        },
      );
    } catch (error) {
      if (this.stopped) return;
      const status = (error as { statusCode?: number }).statusCode;
      const service = safeOrigin(delivery.endpoint);
      if (status === 404 || status === 410) {
        // The device unsubscribed or the subscription expired: forget it.
        await this.store.db
          .deleteFrom('push_subscriptions')
          .where('id', '=', delivery.subscriptionId)
          .execute()
          .catch((removal: unknown) => console.error('Web push: could not remove a gone subscription:', removal));
        return;
      }
      console.warn(`Web push: ${service} did not take a message: ${status ? `HTTP ${status}` : (error as Error).message}`);
    }
  }
}

function safeOrigin(endpoint: string): string {
  try {
    return new URL(endpoint).origin;
  } catch {
    return 'a push service';
  }
}
