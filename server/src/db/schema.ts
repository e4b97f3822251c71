import type { OfferResponse, OfferState, PollResults, TicketRequestState } from '@fankurve/shared';
import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

/**
 * Table types of the whole data model (docs/architecture.md); a collection in its own folder adds its
 * tables to `Database` from its own tables.ts (module augmentation). Booleans are 0/1 integers and timestamps ISO
 * text on SQLite and PostgreSQL alike; money is integer cents. Replicated tables carry seq and deleted.
 */
export type Bool = number;

/** The columns every replicated table has; a collection in its own folder builds its table type on it. */
export interface Replicated {
  seq: number;
  deleted: Generated<Bool>;
}

export interface CountersTable {
  name: string;
  value: number;
}

export interface UsersTable extends Replicated {
  id: string;
  username: string;
  /** usernameKey(username) (shared rules/usernames.ts), unique among live users; see migration 003. */
  username_key: string;
  /** usernameSkeleton(username) (domain/usernameSkeleton.ts): look-alike names share it; see migration 009. */
  username_skeleton: string;
  email: string;
  password_hash: string;
  scope: 'admin' | 'user';
  status: 'pending' | 'active';
  language: 'de' | 'en';
  must_change_password: Bool;
  token_version: Generated<number>;
  created_at: string;
  updated_at: string;
  /** When the account was erased (ISO 8601 UTC; migration 030); null for any other account. */
  erased_at: Generated<string | null>;
  /** The erased member's pseudonym number ("Ehemaliges Mitglied 7"); null when none. */
  former_number: Generated<number | null>;
}

/** One signed-in device: every token names its session (docs/architecture.md, sessions). */
export interface SessionsTable {
  id: string;
  user_id: string;
  device_name: string;
  created_at: string;
  last_seen_at: string;
}

export interface PasswordResetsTable {
  id: string;
  user_id: string;
  token_hash: string;
  expires_at: string;
  used: Bool;
  created_at: string;
}

/** An admin's registration link (migration 027; docs/architecture.md, Invites). Not replicated. */
export interface InvitesTable {
  id: string;
  /** The link's token (base64url), kept so the admin can show the link again; registration looks it up by `token_hash` (sha256). */
  token: string;
  token_hash: string;
  /** ISO 8601 UTC: the link works before this instant. */
  expires_at: string;
  max_uses: number;
  /** Registrations counted so far; never above max_uses (claimed by one conditional update). */
  uses: Generated<number>;
  /** 1: registrations through it are active at once. */
  approve: Bool;
  /** When an admin withdrew it; null while it stands. */
  revoked_at: string | null;
  created_at: string;
  created_by: string | null;
}

/** The invite an account registered through (one per account). */
export interface InviteUsesTable {
  user_id: string;
  invite_id: string;
  joined_at: string;
}

export interface StadiumsTable {
  id: string;
  team_name: string;
  stadium_name: string;
  city: string;
  capacity: number;
  guest_block_capacity: number;
  address: string | null;
  ticket_price_cents: number | null;
  created_at: string;
  updated_at: string;
}

export interface StadiumTicketPricesTable {
  id: string;
  stadium_id: string;
  price_cents: number;
  ticket_type: string;
  created_at: string;
}

export interface EventsTable extends Replicated {
  id: string;
  title: string;
  description: string | null;
  date: string;
  location: string;
  stadium_id: string | null;
  ticket_price_cents: number;
  ticket_buyer: string | null;
  is_updated: Bool;
  created_by: string | null;
  image_filename: string | null;
  external_match_id: string | null;
  /** Deleted by an admin while tickets were bought: shown nowhere, its ticket rows stay live (migration 005). */
  archived: Generated<Bool>;
  /** Rises when date, time or place change: the calendar feed's SEQUENCE (migration 017). Not replicated. */
  schedule_version: Generated<number>;
  /** The answer deadline, the club's wall-clock time `YYYY-MM-DD HH:MM:SS`, or null (migration 018). */
  answer_deadline: Generated<string | null>;
  created_at: string;
  updated_at: string;
}

export interface AttendeesTable extends Replicated {
  id: string;
  event_id: string;
  user_id: string | null;
  guest_name: string | null;
  brought_by: string | null;
  status: 'going' | 'maybe';
  needs_ticket: Bool;
  has_ticket: Bool;
  needs_transport: Bool;
  transfer_status: 'outstanding' | 'reserved' | 'waiting_list' | null;
  paid_by: string | null;
  ticket_price_id: string | null;
  ticket_type: string | null;
  price_cents: number | null;
  is_free: Bool;
  is_price_tbd: Bool;
  bought: Bool;
  paid: Bool;
  received: Bool;
  paid_requested: Bool;
  paid_requested_at: string | null;
  received_requested: Bool;
  received_requested_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface TransportsTable extends Replicated {
  id: string;
  event_id: string;
  name: string;
  price_per_seat_cents: number;
  is_free: Bool;
  is_price_tbd: Bool;
  departure_datetime: string | null;
  departure_location: string;
  /** The seat plan (migration 032; docs/product.md, Bus): null = none; rows and seats per row when given as rows. */
  seat_count: number | null;
  seat_rows: number | null;
  seats_per_row: number | null;
  seat_choice: Generated<'admin' | 'members'>;
  charge_at_departure: Generated<Bool>;
  /** When the departure job charged the fare (null: not yet): it charges each option once. */
  departure_charged_at: string | null;
  created_at: string;
  updated_at: string;
}

/** A seat of a transport option's plan and the attendee row holding it (migration 032); a seat and a row once per option. */
export interface TransportSeatsTable {
  transport_id: string;
  seat: number;
  attendee_id: string;
  event_id: string;
  assigned_at: string;
}

/** A transport option's captains (migration 032). */
export interface TransportCaptainsTable {
  transport_id: string;
  user_id: string;
}

/** Who was charged the fare of an option, once per attendee row (migration 032), with the ledger entry. */
export interface TransportFaresTable {
  transport_id: string;
  attendee_id: string;
  ledger_id: string;
  charge_id: string;
  charged_at: string;
}

export interface CommentsTable extends Replicated {
  id: string;
  event_id: string;
  user_id: string;
  comment: string;
  requires_answer: Bool;
  is_resolved: Bool;
  created_at: string;
  updated_at: string;
}

export interface MentionsTable extends Replicated {
  id: string;
  comment_id: string;
  event_id: string;
  user_id: string;
  is_read: Bool;
  created_at: string;
  updated_at: string;
}

/**
 * The club's money, one entry per charge, payment, credit, refund or reversal (migration 014;
 * docs/architecture.md, "Ledger"). Signed cents: positive raises what the member owes. Entries are
 * never changed or deleted (`deleted` stays 0); a correction is a reversal naming the entry.
 */
export interface LedgerTable extends Replicated {
  id: string;
  user_id: string;
  kind: 'ticket' | 'charge' | 'payment' | 'credit' | 'refund' | 'reversal';
  amount_cents: number;
  /** The club's day it counts on (`YYYY-MM-DD`). */
  date: string;
  description: string;
  event_id: string | null;
  /** The ticket (attendee row) a 'ticket' entry or a ticket's payment belongs to. */
  attendee_id: string | null;
  /** For a reversal: the entry it undoes. */
  reverses_id: string | null;
  /** The admin who booked it; null for what the system wrote. */
  created_by: string | null;
  created_at: string;
}

/** One device's push subscription, owned by the session that registered it (migration 006). */
export interface PushSubscriptionsTable {
  id: string;
  user_id: string;
  session_id: string;
  endpoint: string;
  /** The device's P-256 public key and auth secret (base64url, RFC 8291). */
  p256dh: string;
  auth: string;
  device_name: string;
  created_at: string;
  /** When the device last sent it. */
  updated_at: string;
}

/** A notification topic a user switched off (every other topic is on). */
export interface PushTopicsOffTable {
  user_id: string;
  topic: string;
}

export interface SettingsTable {
  key: string;
  value: string;
}

export interface NoticesTable extends Replicated {
  id: string;
  user_id: string;
  code: string;
  message: string;
  event_id: string | null;
  event_title: string | null;
  action: string | null;
  is_read: Generated<number>;
  created_at: string;
}

/** What the fixture import last wrote from one match of the feed (migration 008; matches/importMatches.ts). Not replicated. */
export interface MatchImportsTable {
  match_id: string;
  event_id: string;
  league: string;
  season: number;
  title: string;
  date: string;
  location: string;
  stadium_name: string | null;
  source_updated_at: string | null;
  imported_at: string;
  checked_at: string;
}

/** Scheduled work claimed in the database (migration 012; docs/architecture.md, "Jobs"). Times are ISO 8601 UTC. */
export interface JobsTable {
  name: string;
  /** Null: idle until something schedules it. */
  due_at: string | null;
  claimed_by: string | null;
  claimed_until: string | null;
  last_run_at: string | null;
  last_error: string | null;
}

/** What the admins' digest has noted and not yet sent (migration 012). */
export interface AdminDigestItemsTable {
  id: string;
  kind: 'registration' | 'paid' | 'received';
  user_id: string;
  event_id: string | null;
  noted_at: string;
}

/**
 * Limits and sign-in throttles counted in the database, so several instances count together
 * (migration 013; docs/architecture.md, "Several instances"). Times are epoch milliseconds.
 */
export interface SharedCountersTable {
  key: string;
  /** The window runs from its first hit for `window_ms`; after it the count starts again. */
  window_start: number;
  window_ms: number;
  hits: number;
  /** Sign-in attempts still being checked (account keys), and when the latest began. */
  running: number;
  running_at: number;
  /** The latest failure (account keys): the sign-in delay runs from it. */
  last_at: number;
}

/** A reminder sent to a member: before the event or before its answer deadline (migration 018; docs/architecture.md, Answer deadlines and reminders). Not replicated. */
export interface EventRemindersTable {
  event_id: string;
  user_id: string;
  /** `manual`: an admin's "remind now", one row per member and event, `sent_at` the latest. */
  kind: 'event' | 'deadline' | 'manual';
  /** ISO 8601 UTC. */
  sent_at: string;
}

/** A reminder an event was created inside of: never sent (migration 018). Not replicated. */
export interface ReminderWaiversTable {
  event_id: string;
  kind: 'event' | 'deadline';
  created_at: string;
}

/** A member's calendar feed token, kept only as its sha256 (migration 017; docs/architecture.md, Calendar feed). Not replicated. */
export interface CalendarTokensTable {
  user_id: string;
  token_hash: string;
  /** Random; the token is its HMAC under the server's secret, so the database alone opens no feed. */
  seed: string;
  created_at: string;
}

/** The first answer to a request with an Idempotency-Key (migration 020; docs/architecture.md, Ledger). Not replicated. */
/** A parsed bank statement kept a day for booking (migration 024; docs/architecture.md, Bank statements). */
export interface BankStatementsTable {
  id: string;
  format: string;
  /** The credits as JSON (`KeptStatementLine[]` of domain/money/bankStatements.ts). */
  lines: string;
  created_by: string;
  created_at: string;
  expires_at: string;
}

/** A booked credit of a statement, by its bank reference: never booked twice; its IBAN is learned. */
export interface BankPaymentsTable {
  bank_ref: string;
  user_id: string;
  iban: string;
  ledger_id: string;
  statement_id: string;
  booked_at: string;
}

/** A charge to many members at once (migration 025; docs/architecture.md, Ledger, "Bulk charges"). */
export interface BulkChargesTable {
  id: string;
  note: string;
  target: string;
  total_cents: number;
  created_by: string;
  created_at: string;
  reversed_at: string | null;
}

/** A reminder to pay sent to a member (migration 026; docs/architecture.md, Ledger, "Reminders to pay"). Not replicated. */
export interface PaymentRemindersTable {
  user_id: string;
  /** ISO 8601 UTC: when the member's balance last rose above zero (the debt this reminder is about). */
  owing_since: string;
  /** 1 to PAYMENT_REMINDERS_MAX. */
  round: number;
  /** What the member owed when reminded. */
  amount_cents: number;
  /** ISO 8601 UTC. */
  sent_at: string;
}

/** An admin action as the audit log keeps it (migration 028; docs/architecture.md, Audit log). Append-only, not replicated. */
export interface AuditLogTable {
  id: string;
  /** ISO 8601 UTC. */
  at: string;
  /** The admin, or 'system' for the app's own jobs. */
  actor_id: string;
  kind: 'money' | 'tickets' | 'people' | 'settings';
  /** What was done, e.g. `ledger.entry`, `ticket.status`, `user.role` (docs/architecture.md, Audit log). */
  action: string;
  /** The member it concerns, when one. */
  user_id: string | null;
  event_id: string | null;
  /** The row it changed (an entry, an attendee row, a contingent), when one. */
  entity_id: string | null;
  /** JSON of what changed, before and after; null when nothing was there before (or after). */
  before: string | null;
  after: string | null;
}

/** The ledger entries a bulk charge booked. */
export interface BulkChargeEntriesTable {
  ledger_id: string;
  charge_id: string;
}

export interface IdempotencyKeysTable {
  user_id: string;
  scope: string;
  key: string;
  request_hash: string;
  status: number;
  /** The answer's JSON body. */
  answer: string;
  created_at: string;
}

/** An admin's adjustment of a member's loyalty points (migration 016; docs/architecture.md, "Loyalty"). Not replicated. */
export interface LoyaltyAdjustmentsTable {
  user_id: string;
  /** Added to the counted away matches; may be negative. */
  points: number;
  note: string;
  updated_by: string;
  updated_at: string;
}

/** Addresses and devices that signed in to an account before (auth/sharedThrottle.ts; migration 013). */
export interface SignInTrustTable {
  account: string;
  kind: 'address' | 'device';
  value: string;
  last_at: number;
}

/** A ticket contingent of an event (migration 015; docs/architecture.md, "Ticket contingents"). Not replicated. */
export interface ContingentsTable {
  event_id: string;
  tickets: number;
  /** The club's wall-clock time `YYYY-MM-DD HH:MM:SS`; null: requests are allocated at once. */
  request_deadline: string | null;
  payment_days: number | null;
  offer_minutes: number;
  /** When the allocation ran (ISO 8601 UTC); null while requests gather until the deadline. */
  allocated_at: string | null;
  created_at: string;
  updated_at: string;
}

/** A member's or guest's "needs a ticket", with its time and way (migration 015). Not replicated. */
export interface TicketRequestsTable {
  /** The attendee row that needs the ticket. */
  attendee_id: string;
  event_id: string;
  /** When the server first stored the answer (ISO 8601 UTC); a new request after a withdrawal starts anew. */
  requested_at: string;
  pinned: Bool;
  excluded: Bool;
  state: TicketRequestState;
  /** When it last came to hold a ticket through the contingent. */
  allocated_at: string | null;
  /** A returned ticket whose member no longer goes: their row goes when someone takes it (migration 021). */
  leaves: Generated<Bool>;
  /** The admin's note on a pin or exclusion, which the member concerned reads; null: none (migration 029). */
  note: Generated<string | null>;
  updated_at: string;
}

/** A returned ticket offered to the next in line (migration 015; the synced collection `offers`). */
export interface OffersTable extends Replicated {
  id: string;
  event_id: string;
  attendee_id: string;
  user_id: string;
  ticket_id: string;
  price_cents: number | null;
  expires_at: string;
  state: OfferState;
  response: OfferResponse | null;
  created_at: string;
  updated_at: string;
}

/** A poll an admin asks (migration 019; docs/architecture.md, "Polls"). */
export interface PollsTable extends Replicated {
  id: string;
  question: string;
  multiple: Bool;
  results: PollResults;
  /** The club's wall-clock time `YYYY-MM-DD HH:MM:SS`, or null: open until an admin closes it. */
  closes_at: string | null;
  /** `closes_at` as an instant (ISO 8601 UTC): a vote arriving from then on is refused. */
  closes_at_utc: string | null;
  /** When it was closed (by an admin, or by the job once `closes_at_utc` passed); null while open. */
  closed_at: string | null;
  event_id: string | null;
  created_by: string;
  created_at: string;
  updated_at: string;
}

/** A poll's options in their order (not replicated: the poll's document embeds them). */
export interface PollOptionsTable {
  id: string;
  poll_id: string;
  position: number;
  text: string;
}

/** A member's vote: one per member and poll; `option_ids` a JSON array of option ids ('[]': withdrawn). */
export interface PollVotesTable extends Replicated {
  id: string;
  poll_id: string;
  user_id: string;
  event_id: string | null;
  option_ids: string;
  created_at: string;
  updated_at: string;
}

export interface Database {
  counters: CountersTable;
  users: UsersTable;
  sessions: SessionsTable;
  password_resets: PasswordResetsTable;
  invites: InvitesTable;
  invite_uses: InviteUsesTable;
  stadiums: StadiumsTable;
  stadium_ticket_prices: StadiumTicketPricesTable;
  events: EventsTable;
  attendees: AttendeesTable;
  transports: TransportsTable;
  transport_seats: TransportSeatsTable;
  transport_captains: TransportCaptainsTable;
  transport_fares: TransportFaresTable;
  comments: CommentsTable;
  mentions: MentionsTable;
  push_subscriptions: PushSubscriptionsTable;
  push_topics_off: PushTopicsOffTable;
  settings: SettingsTable;
  notices: NoticesTable;
  match_imports: MatchImportsTable;
  shared_counters: SharedCountersTable;
  sign_in_trust: SignInTrustTable;
  jobs: JobsTable;
  admin_digest_items: AdminDigestItemsTable;
  contingents: ContingentsTable;
  ticket_requests: TicketRequestsTable;
  offers: OffersTable;
  polls: PollsTable;
  poll_options: PollOptionsTable;
  poll_votes: PollVotesTable;
  loyalty_adjustments: LoyaltyAdjustmentsTable;
  calendar_tokens: CalendarTokensTable;
  idempotency_keys: IdempotencyKeysTable;
  bank_statements: BankStatementsTable;
  bank_payments: BankPaymentsTable;
  bulk_charges: BulkChargesTable;
  bulk_charge_entries: BulkChargeEntriesTable;
  event_reminders: EventRemindersTable;
  payment_reminders: PaymentRemindersTable;
  audit_log: AuditLogTable;
  reminder_waivers: ReminderWaiversTable;
  ledger: LedgerTable;
}

export type UserRow = Selectable<UsersTable>;
export type SessionRow = Selectable<SessionsTable>;
export type EventRow = Selectable<EventsTable>;
export type AttendeeRow = Selectable<AttendeesTable>;
export type NewAttendee = Insertable<AttendeesTable>;
export type AttendeeUpdate = Updateable<AttendeesTable>;
export type NoticeRow = Selectable<NoticesTable>;
export type LedgerRow = Selectable<LedgerTable>;
