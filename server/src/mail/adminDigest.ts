import { newId } from '@fankurve/shared';
import type { Config } from '../config.js';
import type { Commit, Store } from '../db/store.js';
import type { DomainEvent } from '../domain/domainEvents.js';
import { getSiteConfig } from '../domain/club/settings.js';
import { scheduleJob } from '../db/jobs.js';
import type { Job, JobRunner } from '../jobs/runner.js';
import type { Mailer } from './mailer.js';
import { adminDigestMail, type DigestItem } from './templates.js';

/** At most one digest per window of 15 minutes (docs/product.md, Limits and constants). */
export const ADMIN_DIGEST_WINDOW_MS = 15 * 60 * 1000;

type Noted = { kind: 'registration'; userId: string } | { kind: 'paid' | 'received'; userId: string; eventId: string };

export const ADMIN_DIGEST_JOB = 'admin-digest';

/**
 * Mails the admins about work waiting for them (docs/architecture.md, "Mail"): a new registration
 * (`user.registered`) and a new paid or received request (`request.made`). The first such event
 * starts a window; whatever arrives within it goes out as one digest when it ends, so a busy
 * evening costs each admin one mail per 15 minutes. Names and titles are read when the digest is
 * sent (a registration declined meanwhile is left out). Only subscribed when SMTP is configured:
 * without it the log would fill with digests nobody reads. What was noted waits in
 * `admin_digest_items` and the window's end is the due time of the job `admin-digest`
 * (docs/architecture.md, "Jobs"), so every instance feeds the same digest, one instance sends it,
 * and a restart within the window loses nothing.
 */
export class AdminDigest {
  private stopped = false;

  constructor(
    private readonly store: Store,
    private readonly mailer: Mailer,
    private readonly publicUrl: string,
    private readonly jobs: JobRunner | null,
    readonly windowMs = ADMIN_DIGEST_WINDOW_MS,
  ) {}

  static subscribedTo(
    store: Store,
    mailer: Mailer,
    config: Pick<Config, 'publicUrl'>,
    jobs: JobRunner,
    windowMs?: number,
  ): AdminDigest {
    const digest = new AdminDigest(store, mailer, config.publicUrl, jobs, windowMs);
    if (!mailer.configured) return digest;
    jobs.register(digest.job());
    const unsubscribe = store.commits.subscribe((commit) => digest.take(commit));
    store.commits.onClose(() => {
      unsubscribe();
      digest.stop();
    });
    return digest;
  }

  /** The job that sends the digest when its window ends. */
  job(): Job {
    return {
      name: ADMIN_DIGEST_JOB,
      firstDue: () => null,
      run: async () => {
        await this.flush();
        return null;
      },
      // Whatever was noted while the digest went out opens the next window from when it was noted.
      nextDue: async (trx) => {
        const row = await trx
          .selectFrom('admin_digest_items')
          .select((eb) => eb.fn.min('noted_at').as('first'))
          .executeTakeFirst();
        return row?.first ? new Date(Date.parse(row.first) + this.windowMs) : null;
      },
    };
  }

  /** Notes the commit's events that concern the admins; the first opens the window (the job's due time). */
  async take(commit: Commit): Promise<void> {
    if (this.stopped) return;
    const items = commit.events.flatMap(noteOf);
    if (items.length === 0) return;
    const now = new Date();
    const notedAt = now.toISOString();
    const due = await this.store.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('admin_digest_items')
        .values(
          items.map((item) => ({
            id: newId(),
            kind: item.kind,
            user_id: item.userId,
            event_id: item.kind === 'registration' ? null : item.eventId,
            noted_at: notedAt,
          })),
        )
        .execute();
      return scheduleJob(trx, ADMIN_DIGEST_JOB, new Date(now.getTime() + this.windowMs).toISOString());
    });
    this.jobs?.wake(new Date(due));
  }

  /**
   * Sends what was noted now (the window's end; the job calls it). The items are taken out of the
   * table before the mails go out: a failed send loses that digest, never a task (the tasks page
   * lists them all), and no digest goes out twice.
   */
  async flush(): Promise<void> {
    if (this.stopped) return;
    const noted = await this.store.db.transaction().execute(async (trx) => {
      const rows = await trx.selectFrom('admin_digest_items').selectAll().orderBy('noted_at').orderBy('id').execute();
      if (rows.length > 0) {
        await trx
          .deleteFrom('admin_digest_items')
          .where(
            'id',
            'in',
            rows.map((row) => row.id),
          )
          .execute();
      }
      return rows.map((row): Noted =>
        row.kind === 'registration'
          ? { kind: 'registration', userId: row.user_id }
          : { kind: row.kind, userId: row.user_id, eventId: row.event_id ?? '' },
      );
    });
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

  /** Stops noting (shutdown); what was noted stays for the next start or another instance. */
  stop(): void {
    this.stopped = true;
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
  // A registration by the member themselves (an account an admin creates needs no approval, nor one an invite approved).
  if (event.type === 'user.registered' && event.actorId === event.userId && !event.active)
    return [{ kind: 'registration', userId: event.userId }];
  // The member who asked (for a guest's ticket, the member who brought the guest).
  if (event.type === 'request.made') return [{ kind: event.kind, userId: event.actorId, eventId: event.eventId }];
  return [];
}
