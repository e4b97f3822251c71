/*
 * Web push (docs/architecture.md, web push): the notification topics a member can switch off, and
 * the constants both sides use (the route inputs are in schemas/push.ts). Every topic is on until the member switches it off; admins have
 * the admin topics on top.
 */

/** Topics every member gets. */
export const MEMBER_PUSH_TOPICS = [
  /** A new match (event.created). */
  'newEvent',
  /** Date, time, place or price of a match changed: the UPDATED case (event.changed, markedUpdated). */
  'eventChanged',
  /** The member's ticket (or their guest's) was bought. */
  'ticketBought',
  /** The member's paid or received request was accepted. */
  'requestAccepted',
  /** The member's seat in the transport was reserved or moved to the waiting list. */
  'seatStatus',
  /** The member was mentioned in a comment. */
  'mention',
  /** A new comment on a match the member attends (going or maybe). */
  'comment',
  /** A returned ticket is offered to the member (or their guest), or the ticket the member returned was taken. */
  'ticketOffer',
  /** A reminder to answer: the match is near, or its answer deadline, and the member has not answered. */
  'reminders',
  /** Club news: a new announcement or poll. */
  'news',
  /** A reminder to pay: the member has owed money for the club's reminder time. */
  'payments',
  /** Seats in members' rides: a new or cancelled ask (the driver), the answer, a changed or cancelled ride (the passengers). */
  'rides',
] as const;

/** Topics only admins get (docs/product.md, Comments, mentions and notifications). */
export const ADMIN_PUSH_TOPICS = [
  /** A new self-registration waits for approval. */
  'adminRegistration',
  /** A new paid or received request waits for acceptance. */
  'adminRequest',
  /** A new comment requires an answer. */
  'adminCommentAnswer',
] as const;

export const PUSH_TOPICS = [...MEMBER_PUSH_TOPICS, ...ADMIN_PUSH_TOPICS] as const;
export type PushTopic = (typeof PUSH_TOPICS)[number];

export const isAdminPushTopic = (topic: PushTopic): boolean => (ADMIN_PUSH_TOPICS as readonly string[]).includes(topic);

/** The topics a user may have, by scope. */
export const pushTopicsFor = (scope: 'admin' | 'user'): readonly PushTopic[] =>
  scope === 'admin' ? PUSH_TOPICS : MEMBER_PUSH_TOPICS;

/** A device sends its subscription again after this long, so the server's copy stays current (docs/product.md, Limits and constants). */
export const PUSH_RESEND_AFTER_MS = 7 * 24 * 60 * 60 * 1000;

/** The longest a push endpoint URL may be (push services use a few hundred characters). */
export const PUSH_ENDPOINT_MAX_LENGTH = 2048;
