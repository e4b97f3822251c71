/*
 * The member import's limits (docs/architecture.md, Member import): the
 * server refuses a list beyond them, and the admin's form checks the same before sending.
 */

/** The most rows one import takes (below the header). */
export const MEMBER_IMPORT_MAX_ROWS = 5000;

/**
 * The largest request of POST /api/users/import, and so the largest list: 5,000 rows at their
 * fields' limits (username 50, e-mail 200, note 200 characters) fit, quotes and umlauts included.
 */
export const MEMBER_IMPORT_MAX_BYTES = 4 * 1024 * 1024;

/** How long the link an imported member gets to set their password stays valid. */
export const MEMBER_IMPORT_LINK_DAYS = 7;
