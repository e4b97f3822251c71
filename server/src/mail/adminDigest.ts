import type { Config } from '../config.js';
import type { Commit, Store } from '../db/store.js';
import type { DomainEvent } from '../domain/domainEvents.js';
import { getSiteConfig } from '../domain/settings.js';
import type { Mailer } from './mailer.js';
import { adminDigestMail, type DigestItem } from './templates.js';

/** At most one digest per window of 15 minutes (docs/product.md, Limits and constants). */
export const ADMIN_DIGEST_WINDOW_MS = 15 * 60 * 1000;

type Noted = { kind: 'registration'; userId: string } | { kind: 'paid' | 'received'; userId: string; eventId: string };

/**
 * Mails the admins about work waiting for them (docs/architecture.md, mail): a new registration
 * (`user.registered`) and a new paid or received request (`request.made`). The first such event
 * starts a window; whatever arrives within it goes out as one digest when it ends, so a busy
 * evening costs each admin one mail per 15 minutes. Names and titles are read when the digest is
 * sent (a registration declined meanwhile is left out). Only subscribed when SMTP is configured:
 * without it the log would fill with digests nobody reads. In memory: a restart within the window
 * loses that window's digest, never a task (the tasks page lists them all).
 */
export class AdminDigest {
  private noted: Noted[] = [];
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    private readonly store: Store,
    private readonly mailer: Mailer,
    private readonly publicUrl: string,
    readonly windowMs = ADMIN_DIGEST_WINDOW_MS,
  ) {}

  static subscribedTo(store: Store, mailer: Mailer, config: Pick<Config, 'publicUrl'>, windowMs?: number): AdminDigest {
    const digest = new AdminDigest(store, mailer, config.publicUrl, windowMs);
    if (!mailer.configured) return digest;
    const unsubscribe = store.commits.subscribe((commit) => digest.take(commit));
    store.commits.onClose(() => {
      unsubscribe();
      digest.stop();
    });
    return digest;
  }

  /** Notes the commit's events that concern the admins; starts the window on the first. */
  take(commit: Commit): void {
    if (this.stopped) return;
    const items = commit.events.flatMap(noteOf);
    if (items.length === 0) return;
    this.noted.push(...items);
    if (!this.timer) {
      this.timer = setTimeout(() => this.mailer.track(this.flush()), this.windowMs);
      this.timer.unref();
    }
  }

  /** Sends what was noted now (the window's end; tests call it directly). */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const noted = this.noted;
    this.noted = [];
    if (noted.length === 0) return;
    const items = await this.describe(noted);
    if (items.length === 0) return;
    const db = this.store.db;
    const admins = await db
      .selectFrom('users')
      .select(['username', 'email', 'language'])
      .where('scope', '=', 'admin')
      .where('status', '=', 'active')
      .where('deleted', '=', 0)
      .execute();
    const { site_title: siteTitle } = await getSiteConfig(db);
    const tasksLink = `${this.publicUrl.replace(/\/+$/, '')}/admin/tasks`;
    for (const admin of admins) {
      if (!admin.email.includes('@')) continue;
      const mail = adminDigestMail({
        to: admin.email,
        username: admin.username,
        language: admin.language,
        items,
        tasksLink,
        siteTitle,
      });
      await this.mailer.send(mail);
    }
  }

  /** Stops the timer (shutdown); what was noted is dropped. */
  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.noted = [];
  }

  private async describe(noted: Noted[]): Promise<DigestItem[]> {
    const db = this.store.db;
    const userIds = [...new Set(noted.map((item) => item.userId))];
    const eventIds = [...new Set(noted.flatMap((item) => (item.kind === 'registration' ? [] : [item.eventId])))];
    const users = new Map(
      (
        await db
          .selectFrom('users')
          .select(['id', 'username', 'email'])
          .where('id', 'in', userIds)
          .where('deleted', '=', 0)
          .execute()
      ).map((row) => [row.id, row]),
    );
    const events =
      eventIds.length === 0
        ? new Map<string, { title: string; date: string }>()
        : new Map(
            (await db.selectFrom('events').select(['id', 'title', 'date']).where('id', 'in', eventIds).execute()).map((row) => [
              row.id,
              row,
            ]),
          );
    return noted.flatMap((item): DigestItem[] => {
      const user = users.get(item.userId);
      if (!user) return [];
      if (item.kind === 'registration') return [{ kind: 'registration', username: user.username, email: user.email }];
      const event = events.get(item.eventId);
      if (!event) return [];
      return [{ kind: item.kind, username: user.username, eventTitle: event.title, eventDate: event.date }];
    });
  }
}

function noteOf(event: DomainEvent): Noted[] {
  // A registration by the member themselves (an account an admin creates needs no approval).
  if (event.type === 'user.registered' && event.actorId === event.userId) return [{ kind: 'registration', userId: event.userId }];
  // The member who asked (for a guest's ticket, the member who brought the guest).
  if (event.type === 'request.made') return [{ kind: event.kind, userId: event.actorId, eventId: event.eventId }];
  return [];
}
