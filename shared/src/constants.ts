/** Business constants of docs/product.md, Limits and constants, and of docs/architecture.md. */
export const TOKEN_STORAGE_KEY = 'token';
export const POLL_INTERVAL_MS = 30_000;
export const TOAST_DURATION_MS = 3_000;
export const INSTALL_PROMPT_DELAY_MS = 1_000;
export const PUSH_PROMPT_DELAY_MS = 3_000;
export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;
/** A bank statement file (docs/architecture.md, Bank statements): 10,000 CAMT entries take ~4 MB. */
export const STATEMENT_MAX_BYTES = 16 * 1024 * 1024;
/** Lines booked from one statement in one request. */
export const STATEMENT_BOOK_MAX_LINES = 10_000;
export const TIME_STEP_MINUTES = 15;
export const DEFAULT_EVENT_TIME = '15:00';
export const MIN_PASSWORD_LENGTH = 4;
export const DEFAULT_TEAM_ID = 553;
export const DEFAULT_TEAM_NAME = '1. FC Union Berlin';
export const DEFAULT_THEME_COLOR = '#00397D';
export const ACCENT_RED = '#DC2626';
export const DEFAULT_SITE_TITLE = 'Fankurve';
export const LANGUAGES = ['de', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'de';
export const DEFAULT_TIME_ZONE = 'Europe/Berlin';
/** The fixed ticket buyer / payer choice besides members. */
export const CLUB_CASH_DESK = 'club_cash_desk';
export const HOME_SUFFIX = '(H)';
export const AWAY_SUFFIX = '(A)';
export const SCOPES = ['admin', 'user'] as const;
export type Scope = (typeof SCOPES)[number];
export const ATTENDANCE_STATUSES = ['going', 'maybe'] as const;
export type AttendanceStatus = (typeof ATTENDANCE_STATUSES)[number];
export const TRANSFER_STATUSES = ['outstanding', 'reserved', 'waiting_list'] as const;
export type TransferStatus = (typeof TRANSFER_STATUSES)[number];
export const USER_STATUSES = ['pending', 'active'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];
/** JSON request bodies; uploads have their own limit (IMAGE_MAX_BYTES). */
export const JSON_BODY_LIMIT_BYTES = 1024 * 1024;
export const LOGIN_MAX_FAILURES = 10;
export const LOGIN_FAILURE_WINDOW_MS = 15 * 60 * 1000;
/** Sign-in attempts (failed or running) from one address across all names per window. */
export const SIGN_IN_ADDRESS_MAX_ATTEMPTS = 50;
/** Failed sign-ins of one account (from any address) before each further attempt waits. */
export const SIGN_IN_FREE_FAILURES = 5;
/** The longest wait between attempts on one account: the delay doubles up to this. */
export const SIGN_IN_DELAY_MAX_MS = 60_000;
/** Registrations per client address and hour (default of REGISTRATIONS_PER_HOUR): a club evening on one Wi-Fi still fits. */
export const REGISTRATIONS_PER_ADDRESS = 10;
/** argon2 computations at once (each takes a libuv thread, which file serving shares) and how many may wait. */
export const PASSWORD_HASH_CONCURRENCY = 2;
export const PASSWORD_HASH_QUEUE = 16;
/** Open change streams per user; a further one closes the oldest. */
export const STREAMS_PER_USER = 5;
/** A session ends after this long without use. */
export const SESSION_IDLE_MS = 90 * 24 * 60 * 60 * 1000;
/** Guests one member may bring to one event (default of the GUEST_LIMIT setting). */
export const DEFAULT_GUEST_LIMIT = 10;
/** Rows in one sync push (RxDB sends at most its batch size; more is not a device). */
export const SYNC_PUSH_MAX_ROWS = 200;
/** Comments one member may write per minute. */
export const COMMENTS_PER_MINUTE = 10;
export const SYNC_HEARTBEAT_MS = 25_000;
export const GUEST_NAME_MAX_LENGTH = 100;
/**
 * Documents per sync pull request: the client asks for this many, the server answers at most this
 * many. A first sync of the kept events' attendee rows (~5,800 in a club of five seasons) is two
 * pages: each page is one transaction on the device and one render of what reads it, and one
 * request per device in a rush (docs/architecture.md, Client data layer).
 */
export const SYNC_PULL_LIMIT = 5000;

/** Seasons the loyalty points count (default of the `loyalty_seasons` club setting; docs/product.md, Loyalty). */
export const DEFAULT_LOYALTY_SEASONS = 2;

/*
 * Ticket contingents (docs/product.md, Limits and constants). Kept here, not beside the input
 * schemas: a screen that imports a limit must not pull zod's schemas into its chunk.
 */
export const CONTINGENT_TICKETS_MAX = 100_000;
export const PAYMENT_DAYS_MAX = 365;
/** The longest acceptance window of an offer: one week. */
export const OFFER_MINUTES_MAX = 7 * 24 * 60;
/** The acceptance window of a new contingent's offers: one day. */
export const DEFAULT_OFFER_MINUTES = 24 * 60;

/* Polls (docs/product.md, Input rules; Limits and constants). */
export const POLL_QUESTION_MAX_LENGTH = 200;
export const POLL_OPTION_MAX_LENGTH = 100;
/** A poll offers at least 2 and at most 10 options. */
export const POLL_OPTIONS_MIN = 2;
export const POLL_OPTIONS_MAX = 10;
/** When members see a poll's counts: after their own vote, or once it is closed (admins always). */
export const POLL_RESULTS = ['after_vote', 'after_close'] as const;
export type PollResults = (typeof POLL_RESULTS)[number];

/*
 * Answer deadlines and reminders (docs/product.md, Limits and constants): the team configuration's
 * reminder times. 0 switches a reminder off.
 */
/** Days before an event when members who have not answered are reminded (default; 0 = off). */
export const DEFAULT_REMINDER_DAYS_BEFORE = 3;
export const REMINDER_DAYS_BEFORE_MAX = 14;
/** Hours before an event's answer deadline when members who have not answered are reminded (default; 0 = off). */
export const DEFAULT_DEADLINE_REMINDER_HOURS = 24;
export const DEADLINE_REMINDER_HOURS_MAX = 168;

/*
 * Reminders to pay (docs/product.md, Tickets and money, "Reminders to pay"): a member who has owed
 * money for `payment_reminder_days` days is reminded, again after as many days, at most
 * PAYMENT_REMINDERS_MAX times while the debt stays. 0 switches them off.
 */
export const DEFAULT_PAYMENT_REMINDER_DAYS = 14;
export const PAYMENT_REMINDER_DAYS_MAX = 90;
export const PAYMENT_REMINDERS_MAX = 3;

/*
 * Erasure with retention (docs/product.md, Data protection): what the books need of an erased
 * member is kept this many years after the end of the year it belongs to, then the retention job
 * removes it. 10 for the books (§ 147 AO); at least 8, the vouchers' term.
 */
export const DEFAULT_RETENTION_YEARS = 10;
export const RETENTION_YEARS_MIN = 8;
export const RETENTION_YEARS_MAX = 30;

/** Unread notices one member keeps at most: a new one marks the oldest read (docs/architecture.md, Sync: Refusals). */
export const NOTICES_UNREAD_MAX = 20;
/** A repeat of an unread notice moves it to the top at most this often; in between it writes nothing. */
export const NOTICE_REPEAT_PACE_MS = 60_000;

/*
 * The audit log (docs/architecture.md, Audit log): the kinds of admin action it keeps, and the rows
 * of one page of GET /api/audit.
 */
export const AUDIT_KINDS = ['money', 'tickets', 'people', 'settings'] as const;
export type AuditKind = (typeof AUDIT_KINDS)[number];
export const AUDIT_PAGE_SIZE = 100;
