import { DEFAULT_TIME_ZONE, type Language } from '@fankurve/shared';
import { isAdminPushTopic } from '@fankurve/shared/push';
import type { Store } from '../db/store.js';
import type { DomainEvent } from '../domain/domainEvents.js';
import type { Delivery } from './delivery.js';
import { runNotifyHandler, type Candidate, type NotifyContext, type NotifyHandlers, type Subscriber } from './handlers.js';
import {
  pollText,
  commentAnswerText,
  commentText,
  eventChangedText,
  mentionText,
  newEventText,
  registrationText,
  requestAcceptedText,
  requestMadeText,
  seatStatusText,
  ticketBoughtText,
  ticketTakenText,
  offerMadeText,
  reminderText,
  paymentReminderText,
  type CommentInfo,
  type EventInfo,
} from './texts.js';

/*
 * Who gets what (docs/architecture.md, "Web Push"): the messages the domain events of one commit
 * lead to, for the members they concern, in each member's language, never for the member who acted,
 * leaving out the topics a member switched off; one per device of each recipient. Reads only.
 */

/**
 * The declarative web push message (W3C Push API, "declarative push message"; WebKit's Declarative
 * Web Push, Safari 18.4+): Safari shows `notification` without running the service worker; every
 * other browser hands the JSON to the service worker (client/src/pwa/sw.ts), which shows the same.
 */
export interface DeclarativePushMessage {
  web_push: 8030;
  notification: {
    title: string;
    body: string;
    /** Absolute URL opened on a tap. */
    navigate: string;
    lang: Language;
  };
  /** The recipient's unread mentions (0 clears the badge). */
  app_badge: number;
}

/**
 * The messages the events of one commit lead to, one per device of each recipient; `handlers` are
 * the collections' own (notify/handlers.ts). `cancelled` (shutdown) ends the work between its queries.
 */
export async function deliveriesFor(
  store: Store,
  events: DomainEvent[],
  options: { publicUrl: string; handlers: NotifyHandlers },
  cancelled: () => boolean,
): Promise<Delivery[]> {
  const { publicUrl } = options;
  const db = store.db;
  const subscriptionRows = await db
    .selectFrom('push_subscriptions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select(['s.id', 's.user_id', 's.endpoint', 's.p256dh', 's.auth', 'u.language', 'u.scope'])
    .where('u.deleted', '=', 0)
    .where('u.status', '=', 'active')
    .execute();
  if (subscriptionRows.length === 0 || cancelled()) return [];
  const subscribers = new Map<string, Subscriber>(
    subscriptionRows.map((row) => [row.user_id, { userId: row.user_id, language: row.language, scope: row.scope }]),
  );
  const candidates = await new Planner(store, subscribers, options.handlers).plan(events);
  if (candidates.length === 0 || cancelled()) return [];

  const userIds = [...new Set(candidates.map((c) => c.userId))];
  const off = new Set(
    (await db.selectFrom('push_topics_off').select(['user_id', 'topic']).where('user_id', 'in', userIds).execute()).map(
      (row) => `${row.user_id}|${row.topic}`,
    ),
  );
  const chosen = new Map<string, Candidate>();
  for (const candidate of [...candidates].sort((a, b) => a.rank - b.rank)) {
    const slot = `${candidate.userId}|${candidate.key}`;
    if (chosen.has(slot)) continue;
    const subscriber = subscribers.get(candidate.userId)!;
    if (isAdminPushTopic(candidate.topic) && subscriber.scope !== 'admin') continue;
    if (off.has(`${candidate.userId}|${candidate.topic}`)) continue;
    chosen.set(slot, candidate);
  }
  if (chosen.size === 0) return [];

  const recipients = [...new Set([...chosen.values()].map((c) => c.userId))];
  const badges = new Map<string, number>(
    (
      await db
        .selectFrom('mentions')
        .select((eb) => ['user_id', eb.fn.countAll<number>().as('unread')])
        .where('user_id', 'in', recipients)
        .where('is_read', '=', 0)
        .where('deleted', '=', 0)
        .groupBy('user_id')
        .execute()
    ).map((row) => [row.user_id, Number(row.unread)]),
  );
  const base = publicUrl.replace(/\/+$/, '');
  const deliveries: Delivery[] = [];
  for (const candidate of chosen.values()) {
    const subscriber = subscribers.get(candidate.userId)!;
    const text = candidate.text(subscriber.language);
    const message: DeclarativePushMessage = {
      web_push: 8030,
      notification: { title: text.title, body: text.body, navigate: `${base}${text.path}`, lang: subscriber.language },
      app_badge: badges.get(candidate.userId) ?? 0,
    };
    const payload = JSON.stringify(message);
    for (const row of subscriptionRows) {
      if (row.user_id !== candidate.userId) continue;
      deliveries.push({ subscriptionId: row.id, endpoint: row.endpoint, p256dh: row.p256dh, auth: row.auth, payload });
    }
  }
  return deliveries;
}

/** Works out who may get what for the events of one commit (only members with a subscription count). */
class Planner {
  private readonly candidates: Candidate[] = [];
  private readonly eventCache = new Map<string, EventInfo | null>();

  constructor(
    private readonly store: Store,
    private readonly subscribers: Map<string, Subscriber>,
    private readonly handlers: NotifyHandlers,
  ) {}

  /** What a collection's own handler sees of the planner. */
  private get context(): NotifyContext {
    return {
      db: this.store.db,
      subscribers: () => this.subscribers.values(),
      add: (userId, actorId, candidate) => this.add(userId, actorId, candidate),
    };
  }

  private add(userId: string | null, actorId: string, candidate: Omit<Candidate, 'userId'>): void {
    // Never to the member who acted; only to members who have a device to send to.
    if (!userId || userId === actorId || !this.subscribers.has(userId)) return;
    this.candidates.push({ userId, ...candidate });
  }

  private admins(): Subscriber[] {
    return [...this.subscribers.values()].filter((s) => s.scope === 'admin');
  }

  async plan(events: DomainEvent[]): Promise<Candidate[]> {
    const created = events.filter((e): e is Extract<DomainEvent, { type: 'event.created' }> => e.type === 'event.created');
    if (created.length > 0) await this.newEvents(created);
    const changed = new Map<string, { fields: Set<string>; actorIds: Set<string> }>();
    for (const event of events) {
      if (event.type !== 'event.changed') continue;
      const entry = changed.get(event.eventId) ?? { fields: new Set<string>(), actorIds: new Set<string>() };
      for (const field of event.fields) entry.fields.add(field);
      entry.actorIds.add(event.actorId);
      changed.set(event.eventId, entry);
    }
    for (const [eventId, { fields, actorIds }] of changed) await this.eventChanged(eventId, [...fields], actorIds);
    for (const event of events) {
      switch (event.type) {
        case 'ticket.bought':
          await this.ticketBought(event);
          break;
        case 'request.accepted':
          await this.requestAccepted(event);
          break;
        case 'transferStatus.changed':
          await this.seatStatus(event);
          break;
        case 'mention.created':
          await this.mention(event);
          break;
        case 'comment.added':
          await this.comment(event);
          break;
        case 'user.registered':
          await this.registration(event);
          break;
        case 'request.made':
          await this.requestMade(event);
          break;
        case 'offer.made':
          await this.offerMade(event);
          break;
        case 'offer.accepted':
          await this.ticketTaken(event);
          break;
        case 'reminder.sent':
          await this.reminder(event);
          break;
        case 'payment.reminded':
          this.paymentReminder(event);
          break;
        case 'poll.created':
          await this.poll(event);
          break;
        default:
          await runNotifyHandler(this.handlers, event, this.context);
          break;
      }
    }
    return this.candidates;
  }

  private async event(id: string): Promise<EventInfo | null> {
    if (!this.eventCache.has(id)) {
      const row = await this.store.db
        .selectFrom('events')
        .select(['id', 'title', 'date', 'location', 'ticket_price_cents'])
        .where('id', '=', id)
        .where('deleted', '=', 0)
        .where('archived', '=', 0)
        .executeTakeFirst();
      this.eventCache.set(
        id,
        row
          ? { id: row.id, title: row.title, date: row.date, location: row.location, ticketPriceCents: row.ticket_price_cents }
          : null,
      );
    }
    return this.eventCache.get(id)!;
  }

  /** Members (not guests) with a live attendance row, going or maybe, on the event. */
  private async attendeesOf(eventId: string): Promise<string[]> {
    const rows = await this.store.db
      .selectFrom('attendees')
      .select('user_id')
      .where('event_id', '=', eventId)
      .where('deleted', '=', 0)
      .where('user_id', 'is not', null)
      .where('status', 'in', ['going', 'maybe'])
      .execute();
    return [...new Set(rows.map((row) => row.user_id!))];
  }

  private async guestName(attendeeId: string): Promise<string | null> {
    const row = await this.store.db
      .selectFrom('attendees')
      .select(['guest_name', 'user_id'])
      .where('id', '=', attendeeId)
      .executeTakeFirst();
    return row && row.user_id === null ? row.guest_name : null;
  }

  private async newEvents(created: Extract<DomainEvent, { type: 'event.created' }>[]): Promise<void> {
    const infos: { info: EventInfo; actorId: string }[] = [];
    for (const event of created) {
      const info = await this.event(event.eventId);
      if (info) infos.push({ info, actorId: event.actorId });
    }
    if (infos.length === 0) return;
    for (const subscriber of this.subscribers.values()) {
      // Each member hears of the new matches someone else created; several in one write are one message.
      const theirs = infos.filter((entry) => entry.actorId !== subscriber.userId).map((entry) => entry.info);
      if (theirs.length === 0) continue;
      this.add(subscriber.userId, '', { key: 'newEvent', rank: 1, topic: 'newEvent', text: (l) => newEventText(l, theirs) });
    }
  }

  private async eventChanged(eventId: string, fields: string[], actorIds: Set<string>): Promise<void> {
    const info = await this.event(eventId);
    if (!info) return;
    for (const userId of await this.attendeesOf(eventId)) {
      if (actorIds.has(userId)) continue;
      this.add(userId, '', {
        key: `eventChanged:${eventId}`,
        rank: 1,
        topic: 'eventChanged',
        text: (l) => eventChangedText(l, info, fields),
      });
    }
  }

  /** A new poll reaches every member but the admin who asked it (topic `news`). */
  private async poll(event: Extract<DomainEvent, { type: 'poll.created' }>): Promise<void> {
    const row = await this.store.db
      .selectFrom('polls')
      .select(['question', 'event_id'])
      .where('id', '=', event.pollId)
      .where('deleted', '=', 0)
      .executeTakeFirst();
    if (!row) return;
    const options = await this.store.db
      .selectFrom('poll_options')
      .select('text')
      .where('poll_id', '=', event.pollId)
      .orderBy('position')
      .execute();
    const poll = { question: row.question, options: options.map((option) => option.text), eventId: row.event_id };
    for (const subscriber of this.subscribers.values()) {
      this.add(subscriber.userId, event.actorId, {
        key: `poll:${event.pollId}`,
        rank: 1,
        topic: 'news',
        text: (l) => pollText(l, poll),
      });
    }
  }

  private async ticketBought(event: Extract<DomainEvent, { type: 'ticket.bought' }>): Promise<void> {
    const info = await this.event(event.eventId);
    if (!info || !event.debtorId) return;
    const guest = event.userId === null ? await this.guestName(event.attendeeId) : null;
    this.add(event.debtorId, event.actorId, {
      key: `ticketBought:${event.attendeeId}`,
      rank: 1,
      topic: 'ticketBought',
      text: (l) => ticketBoughtText(l, info, guest),
    });
  }

  private async requestAccepted(event: Extract<DomainEvent, { type: 'request.accepted' }>): Promise<void> {
    const info = await this.event(event.eventId);
    // The member, or for a guest the member who brought them: the event's debtorId (`debtorOf`).
    const recipient = event.debtorId;
    if (!info || !recipient) return;
    const guest = event.userId === null ? await this.guestName(event.attendeeId) : null;
    this.add(recipient, event.actorId, {
      key: `requestAccepted:${event.attendeeId}:${event.kind}`,
      rank: 1,
      topic: 'requestAccepted',
      text: (l) => requestAcceptedText(l, info, event.kind, guest),
    });
  }

  private async seatStatus(event: Extract<DomainEvent, { type: 'transferStatus.changed' }>): Promise<void> {
    const info = await this.event(event.eventId);
    const recipient = event.debtorId;
    const status = event.to;
    if (!info || !recipient || (status !== 'reserved' && status !== 'waiting_list')) return;
    const guest = event.userId === null ? await this.guestName(event.attendeeId) : null;
    this.add(recipient, event.actorId, {
      key: `seatStatus:${event.attendeeId}`,
      rank: 1,
      topic: 'seatStatus',
      text: (l) => seatStatusText(l, info, status, guest),
    });
  }

  private async commentInfo(commentId: string): Promise<CommentInfo | null> {
    const row = await this.store.db
      .selectFrom('comments as c')
      .innerJoin('events as e', 'e.id', 'c.event_id')
      .innerJoin('users as u', 'u.id', 'c.user_id')
      .select(['c.id', 'c.event_id', 'c.comment', 'e.title', 'u.username'])
      .where('c.id', '=', commentId)
      .where('c.deleted', '=', 0)
      .where('e.deleted', '=', 0)
      .where('e.archived', '=', 0)
      .executeTakeFirst();
    return row ? { id: row.id, eventId: row.event_id, eventTitle: row.title, author: row.username, text: row.comment } : null;
  }

  private readonly comments = new Map<string, Promise<CommentInfo | null>>();

  private comment_(commentId: string): Promise<CommentInfo | null> {
    let info = this.comments.get(commentId);
    if (!info) {
      info = this.commentInfo(commentId);
      this.comments.set(commentId, info);
    }
    return info;
  }

  private async mention(event: Extract<DomainEvent, { type: 'mention.created' }>): Promise<void> {
    const info = await this.comment_(event.commentId);
    if (!info) return;
    // One message per comment and member: a mention outranks the admin's answer request and the plain comment.
    this.add(event.userId, event.actorId, {
      key: `comment:${event.commentId}`,
      rank: 1,
      topic: 'mention',
      text: (l) => mentionText(l, info),
    });
  }

  private async comment(event: Extract<DomainEvent, { type: 'comment.added' }>): Promise<void> {
    const info = await this.comment_(event.commentId);
    if (!info) return;
    if (event.requiresAnswer) {
      for (const admin of this.admins()) {
        this.add(admin.userId, event.actorId, {
          key: `comment:${event.commentId}`,
          rank: 2,
          topic: 'adminCommentAnswer',
          text: (l) => commentAnswerText(l, info),
        });
      }
    }
    for (const userId of await this.attendeesOf(event.eventId)) {
      this.add(userId, event.actorId, {
        key: `comment:${event.commentId}`,
        rank: 3,
        topic: 'comment',
        text: (l) => commentText(l, info),
      });
    }
  }

  private async registration(event: Extract<DomainEvent, { type: 'user.registered' }>): Promise<void> {
    if (this.admins().length === 0) return;
    const user = await this.store.db
      .selectFrom('users')
      .select(['username', 'email'])
      .where('id', '=', event.userId)
      .where('deleted', '=', 0)
      .executeTakeFirst();
    if (!user) return;
    for (const admin of this.admins()) {
      this.add(admin.userId, event.actorId, {
        key: `registration:${event.userId}`,
        rank: 1,
        topic: 'adminRegistration',
        text: (l) => registrationText(l, user),
      });
    }
  }

  private async offerMade(event: Extract<DomainEvent, { type: 'offer.made' }>): Promise<void> {
    const info = await this.event(event.eventId);
    if (!info) return;
    const guestName = await this.guestName(event.attendeeId);
    const timeZone = this.store.clubTimeZone ?? DEFAULT_TIME_ZONE;
    this.add(event.userId, event.actorId, {
      key: `offer:${event.offerId}`,
      rank: 1,
      topic: 'ticketOffer',
      text: (l) => offerMadeText(l, info, { expiresAt: event.expiresAt, guestName, timeZone }),
    });
  }

  /**
   * A reminder to answer, to each member the job chose (domain/events/reminders.ts). Both of an event's
   * reminders due in one run are one message: the deadline's, which says more.
   */
  private async reminder(event: Extract<DomainEvent, { type: 'reminder.sent' }>): Promise<void> {
    const info = await this.event(event.eventId);
    if (!info) return;
    for (const userId of event.userIds) {
      this.add(userId, event.actorId, {
        key: `reminder:${event.eventId}`,
        rank: event.kind === 'deadline' ? 1 : 2,
        topic: 'reminders',
        text: (l) => reminderText(l, info, event.kind, event.deadline),
      });
    }
  }

  /** A reminder to pay, to each member the job chose (domain/money/paymentReminders.ts). */
  private paymentReminder(event: Extract<DomainEvent, { type: 'payment.reminded' }>): void {
    for (const { userId, owedCents, round } of event.reminders) {
      this.add(userId, event.actorId, {
        key: `payment:${userId}`,
        rank: 1,
        topic: 'payments',
        text: (l) => paymentReminderText(l, owedCents, round),
      });
    }
  }

  /** The member who returned the ticket hears that it was taken (and its debt with it). */
  private async ticketTaken(event: Extract<DomainEvent, { type: 'offer.accepted' }>): Promise<void> {
    const info = await this.event(event.eventId);
    if (!info || !event.returnerId) return;
    const guestName = await this.guestName(event.ticketId);
    this.add(event.returnerId, event.actorId, {
      key: `ticketTaken:${event.ticketId}`,
      rank: 1,
      topic: 'ticketOffer',
      text: (l) => ticketTakenText(l, info, guestName),
    });
  }

  private async requestMade(event: Extract<DomainEvent, { type: 'request.made' }>): Promise<void> {
    if (this.admins().length === 0) return;
    const info = await this.event(event.eventId);
    const asker = await this.store.db.selectFrom('users').select('username').where('id', '=', event.actorId).executeTakeFirst();
    if (!info || !asker) return;
    const guest = event.userId === null ? await this.guestName(event.attendeeId) : null;
    for (const admin of this.admins()) {
      this.add(admin.userId, event.actorId, {
        key: `requestMade:${event.attendeeId}:${event.kind}`,
        rank: 1,
        topic: 'adminRequest',
        text: (l) => requestMadeText(l, event.kind, asker.username, info, guest),
      });
    }
  }
}
