import { describe, expect, it } from 'vitest';
import {
  addGuestInput,
  attendeesSync,
  canManageEvent,
  checkGuestName,
  checkMemberMayDrop,
  checkNewAttendance,
  commentRefusal,
  debtorOf,
  hasUnpaidDebts,
  mayDeleteEvent,
  parseEuros,
  parseEurosAmount,
  SYNC_COLLECTIONS,
  SYNC_DECLARATIONS,
  transferStatusAfterAnswer,
} from '../src/index.js';

describe('money parsing (one rule for every price field)', () => {
  it('accepts what people type: 18,5 / 18.50 / 18,50 € / € 18', () => {
    expect(parseEuros('18,5')).toBe(1850);
    expect(parseEuros('18.50')).toBe(1850);
    expect(parseEuros('18,50 €')).toBe(1850);
    expect(parseEuros('€ 18')).toBe(1800);
    expect(parseEuros(' 0,05 ')).toBe(5);
    expect(parseEuros('0')).toBe(0);
    expect(parseEurosAmount('18,5')).toBe(18.5);
  });

  it('refuses more than two decimals, signs, misplaced separators and text instead of guessing', () => {
    expect(parseEuros('1.000,00')).toBe(100000);
    for (const text of ['18,555', '1.000,0,0', '-5', '+5', '', ' ', 'abc', '18,', ',5', '1e3', '18 50']) {
      expect(parseEuros(text), text).toBeNull();
    }
  });
});

describe('attendance rules', () => {
  const row = (fields: Partial<{ user_id: string | null; brought_by: string | null; bought: boolean; paid: boolean }>) => ({
    user_id: 'u1',
    brought_by: null,
    bought: false,
    paid: false,
    ...fields,
  });

  it('makes the member or, for a guest, the member who brought them owe the ticket', () => {
    expect(debtorOf(row({}))).toBe('u1');
    expect(debtorOf(row({ user_id: null, brought_by: 'u2' }))).toBe('u2');
    expect(hasUnpaidDebts([row({ bought: true })], 'u1')).toBe(true);
    expect(hasUnpaidDebts([row({ bought: true, paid: true })], 'u1')).toBe(false);
    expect(hasUnpaidDebts([row({ user_id: null, brought_by: 'u1', bought: true })], 'u1')).toBe(true);
    expect(hasUnpaidDebts([row({ user_id: null, brought_by: 'u2', bought: true })], 'u1')).toBe(false);
    expect(hasUnpaidDebts([{ ...row({ bought: true }), _deleted: true }], 'u1')).toBe(false);
  });

  it('blocks new attendance while in debt, and a member dropping a bought ticket', () => {
    expect(checkNewAttendance(true)).toEqual({ ok: false, code: 'unpaidDebts' });
    expect(checkNewAttendance(false).ok).toBe(true);
    expect(checkMemberMayDrop({ bought: true })).toEqual({ ok: false, code: 'ticketAlreadyBought' });
    expect(checkMemberMayDrop({ bought: false }).ok).toBe(true);
  });

  it('makes a seat needed (again) outstanding and keeps an admin-given status', () => {
    expect(transferStatusAfterAnswer(null, true)).toBe('outstanding');
    expect(transferStatusAfterAnswer(null, false)).toBeNull();
    expect(transferStatusAfterAnswer('reserved', true)).toBe('reserved');
    expect(transferStatusAfterAnswer('reserved', false)).toBe('reserved');
  });

  it('trims guest names and requires one', () => {
    expect(checkGuestName('  Paul ')).toEqual({ ok: true, value: 'Paul' });
    expect(checkGuestName('   ')).toEqual({ ok: false, code: 'guestNameRequired' });
    expect(checkGuestName('x'.repeat(101))).toEqual({ ok: false, code: 'invalidInput' });
  });

  it('lets the creator or an admin manage an event', () => {
    expect(canManageEvent({ id: 'u1', scope: 'user' }, { created_by: 'u1' })).toBe(true);
    expect(canManageEvent({ id: 'u2', scope: 'user' }, { created_by: 'u1' })).toBe(false);
    expect(canManageEvent({ id: 'u2', scope: 'admin' }, { created_by: null })).toBe(true);
    expect(canManageEvent({ id: 'u2', scope: 'user' }, { created_by: null })).toBe(false);
  });

  it('lets only an admin delete an event with bought tickets', () => {
    expect(mayDeleteEvent({ scope: 'user' }, false)).toBe(true);
    expect(mayDeleteEvent({ scope: 'user' }, true)).toBe(false);
    expect(mayDeleteEvent({ scope: 'admin' }, true)).toBe(true);
  });

  it("gives the REST guest name the rule's codes", () => {
    const issue = (guest_name: unknown) => addGuestInput.safeParse({ event_id: 'e1', guest_name }).error?.issues[0]?.message;
    expect(addGuestInput.parse({ event_id: 'e1', guest_name: '  Paul ' }).guest_name).toBe('Paul');
    expect(issue(undefined)).toBe('guestNameRequired');
    expect(issue(7)).toBe('guestNameRequired');
    expect(issue('   ')).toBe('guestNameRequired');
    expect(issue('x'.repeat(101))).toBe('invalidInput');
    expect(issue('Pa\u202Eul')).toBe('textHasControlCharacters');
  });
});

describe('comment refusals', () => {
  const comment = (fields: Partial<{ user_id: string; requires_answer: boolean; is_resolved: boolean }> = {}) => ({
    user_id: 'author',
    requires_answer: true,
    is_resolved: false,
    ...fields,
  });
  const author = { id: 'author', scope: 'user' as const };
  const other = { id: 'other', scope: 'user' as const };
  const admin = { id: 'admin', scope: 'admin' as const };

  it('is none where the rule allows the change', () => {
    expect(commentRefusal(author, comment(), 'edit')).toBeNull();
    expect(commentRefusal(admin, comment({ is_resolved: true }), 'unresolve')).toBeNull();
  });

  it('is commentNotAllowed where the actor may never do it, else the state the comment is in', () => {
    expect(commentRefusal(other, comment(), 'edit')).toBe('commentNotAllowed');
    expect(commentRefusal(admin, comment(), 'edit')).toBe('commentNotAllowed');
    expect(commentRefusal(author, comment({ is_resolved: true }), 'edit')).toBe('commentIsResolved');
    expect(commentRefusal(author, comment({ is_resolved: true }), 'resolve')).toBe('commentIsResolved');
    expect(commentRefusal(author, comment(), 'unresolve')).toBe('commentNotReopenable');
    expect(commentRefusal(author, comment({ is_resolved: true, requires_answer: false }), 'unresolve')).toBe(
      'commentNotReopenable',
    );
  });
});

describe('sync declarations', () => {
  it('declares every collection once, with schema-valid tombstone blanks and only declared push fields', () => {
    for (const name of SYNC_COLLECTIONS) {
      const declaration = SYNC_DECLARATIONS[name];
      expect(declaration.name).toBe(name);
      expect(declaration.schema.title).toBe(name);
      const properties = Object.keys(declaration.schema.properties);
      for (const field of Object.keys(declaration.tombstone)) expect(properties).toContain(field);
      for (const required of declaration.schema.required) {
        if (required !== 'id' && required !== 'seq') expect(Object.keys(declaration.tombstone)).toContain(required);
      }
      for (const field of [...(declaration.push?.fields ?? []), ...(declaration.push?.createFields ?? [])]) {
        expect(properties).toContain(field);
      }
    }
    expect(SYNC_DECLARATIONS.events.priority).toBeLessThan(SYNC_DECLARATIONS.attendees.priority);
    expect(attendeesSync.push?.fields).not.toContain('bought');
  });
});
