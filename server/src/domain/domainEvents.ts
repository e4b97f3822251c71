import type { AttendanceStatus, TransferStatus } from '@fankurve/shared';

/*
 * What happened, as the domain says it. Domain writers record these on their write context; the
 * subscribers (the sync change stream now; web push, mail and reminders later) receive them only
 * after the transaction has committed, never after a rollback (docs/architecture.md, domain events).
 * Each names the acting user (`actorId`; 'system' for writes no user makes).
 */

export interface Base {
  actorId: string;
}

/** A member's or a guest's attendance row (the ticket is the same row). */
interface AttendeeRef extends Base {
  eventId: string;
  attendeeId: string;
  /** The member; null for a guest. */
  userId: string | null;
  /** Who owes the ticket: the member, or for a guest the member who brought them. */
  debtorId: string | null;
}

// The database layer carries these on its commits (db/store.ts `RecordedEvent`) without importing them.
declare module '../db/store.js' {
  interface RecordedEvents {
    event: DomainEvent;
  }
}

/**
 * Each domain event's fields by its type. A collection in its own folder adds its events here from
 * its own events.ts (module augmentation), so the union below names them too.
 */
export interface DomainEventTypes {
  'attendance.set': { status: AttendanceStatus } & AttendeeRef;
  'attendance.changed': { fields: string[] } & AttendeeRef;
  'attendance.removed': AttendeeRef;
  'guest.added': { guestName: string } & AttendeeRef;
  'guest.removed': AttendeeRef;
  'ticket.bought': AttendeeRef;
  'ticket.paid': AttendeeRef;
  'ticket.received': AttendeeRef;
  'request.made': { kind: 'paid' | 'received' } & AttendeeRef;
  'request.accepted': { kind: 'paid' | 'received' } & AttendeeRef;
  'transferStatus.changed': { from: TransferStatus | null; to: TransferStatus | null } & AttendeeRef;
  'event.created': { eventId: string } & Base;
  'event.changed': { eventId: string; fields: string[]; markedUpdated: boolean } & Base;
  /** `archived`: tickets were bought, so the event was archived and its ticket rows kept (domain/events/events.ts deleteEvent). */
  'event.deleted': { eventId: string; archived: boolean } & Base;
  /** A registration; through an invite it names the invite, and `active` when the invite approved it at once (docs/architecture.md, Invites). */
  'user.registered': { userId: string; inviteId?: string; active?: boolean } & Base;
  'user.approved': { userId: string } & Base;
  'user.declined': { userId: string } & Base;
  'user.deleted': { userId: string } & Base;
  'user.changed': { userId: string; fields: string[] } & Base;
  'password.changed': { userId: string } & Base;
  /** A comment written (REST or sync push); `actorId` is its author. */
  'comment.added': { commentId: string; eventId: string; requiresAnswer: boolean } & Base;
  /** Text edited, resolved/unresolved or the answer request toggled; `fields` names what changed. */
  'comment.changed': { commentId: string; eventId: string; authorId: string; fields: string[] } & Base;
  'comment.deleted': { commentId: string; eventId: string; authorId: string } & Base;
  /** `userId` was mentioned in the comment (a new mention row; an edit that keeps a mention records nothing). */
  'mention.created': { mentionId: string; commentId: string; eventId: string; userId: string } & Base;
  /** Polls (domain/news/polls.ts): asked, changed (question, closing time), closed (by an admin or its time), deleted; a member's vote. */
  'poll.created': { pollId: string; eventId: string | null; closesAtUtc: string | null } & Base;
  'poll.changed': { pollId: string; eventId: string | null; fields: string[]; closesAtUtc: string | null } & Base;
  'poll.closed': { pollId: string; eventId: string | null } & Base;
  'poll.deleted': { pollId: string; eventId: string | null } & Base;
  'poll.voted': { pollId: string; eventId: string | null; optionIds: string[] } & Base;
  /** A ticket contingent set or changed, or allocated (`allocated`: tickets handed out; domain/tickets/contingentSettings.ts, contingentAllocation.ts). */
  'contingent.set': { eventId: string } & Base;
  'contingent.allocated': { eventId: string; allocated: number } & Base;
  /** An admin pinned or excluded a ticket request (or undid it). */
  'ticketRequest.changed': { eventId: string; attendeeId: string; pinned: boolean; excluded: boolean } & Base;
  /** The holder gave the ticket back: it is offered to the next in line, its debt stays until taken. */
  'ticket.returned': AttendeeRef;
  /** A returned ticket offered to `userId` (for a guest, their host) until `expiresAt`. */
  'offer.made': { offerId: string; eventId: string; attendeeId: string; userId: string; expiresAt: string } & Base;
  /** An offer taken: the ticket `ticketId` (with its debt) went to `attendeeId`; `returnerId` owed it before. */
  'offer.accepted': {
    offerId: string;
    eventId: string;
    attendeeId: string;
    userId: string;
    ticketId: string;
    returnerId: string | null;
  } & Base;
  /** An offer declined, run out, or withdrawn (its ticket or its request went away). */
  'offer.closed': {
    offerId: string;
    eventId: string;
    userId: string;
    state: 'declined' | 'expired' | 'withdrawn';
  } & Base;
  /**
   * The system decided to remind `userIds` (active members without an answer) of the event, before
   * it or before its answer deadline (`deadline`, wall clock, for that kind); web push sends it after
   * the commit (domain/events/reminders.ts).
   */
  'reminder.sent': {
    eventId: string;
    /** `manual`: an admin's "remind now" (its actor), to the members push reaches. */
    kind: 'event' | 'deadline' | 'manual';
    userIds: string[];
    deadline: string | null;
  } & Base;
  /**
   * The system reminded members to pay what they owe (`owedCents`, the `round`th reminder of that
   * debt); web push sends it after the commit (domain/money/paymentReminders.ts).
   */
  'payment.reminded': { reminders: { userId: string; owedCents: number; round: number }[] } & Base;
  /** An admin booked a ledger entry for `userId` by hand, or reversed one (`kind` 'reversal'). */
  'ledger.booked': { entryId: string; userId: string; kind: string } & Base;
  'session.started': { sessionId: string; userId: string } & Base;
  'session.ended': { sessionId: string; userId: string } & Base;
}

export type DomainEvent = { [Type in keyof DomainEventTypes]: { type: Type } & DomainEventTypes[Type] }[keyof DomainEventTypes];

/** Events after which a user's existing sessions and change streams are no longer valid. */
export function endsSessionsOf(event: DomainEvent): string | null {
  switch (event.type) {
    case 'password.changed':
    case 'user.deleted':
    case 'user.declined':
      return event.userId;
    default:
      return null;
  }
}

/** Whether the event ends the session `sessionId` of `userId` (its own end, or all of the user's). */
export function endsSession(event: DomainEvent, sessionId: string, userId: string): boolean {
  if (event.type === 'session.ended') return event.sessionId === sessionId;
  return endsSessionsOf(event) === userId;
}
