import { describe, expect, it } from 'vitest';
import { checkUsername, normaliseUsername, usernameKey, usernameProblem } from '../src/rules/usernames.js';
import { loginInput, registerInput, updateUserInput } from '../src/schemas/auth.js';

describe('normaliseUsername', () => {
  it('applies NFKC, trims and collapses inner spaces, and keeps the case', () => {
    expect(normaliseUsername('  Jürgen  ')).toBe('Jürgen');
    // U+0308 combining diaeresis composes with u.
    expect(normaliseUsername('Ju\u0308rgen')).toBe('Jürgen');
    // Full-width letters, a ligature, a no-break space and an em space are compatibility forms.
    expect(normaliseUsername('Ｆａｎ')).toBe('Fan');
    expect(normaliseUsername('ﬁsch')).toBe('fisch');
    expect(normaliseUsername('Hans\u00a0 \u2003Müller')).toBe('Hans Müller');
    expect(normaliseUsername('ÖZIL')).toBe('ÖZIL');
  });

  it('does not trim U+FEFF away (it is refused, not hidden)', () => {
    expect(normaliseUsername('\ufeffadmin')).toBe('\ufeffadmin');
  });
});

describe('usernameKey', () => {
  it('folds Ö and ö and every case together', () => {
    expect(usernameKey('Özil')).toBe('özil');
    expect(usernameKey('özil')).toBe('özil');
    expect(usernameKey('ÖZIL')).toBe('özil');
    expect(usernameKey('O\u0308zil')).toBe('özil');
  });

  it('folds ß, ẞ, SS and ss together', () => {
    const keys = ['Straße', 'STRASSE', 'strasse', 'STRAẞE'].map(usernameKey);
    expect(new Set(keys)).toEqual(new Set(['strasse']));
  });

  it('folds Greek final and medial sigma, and keeps distinct names apart', () => {
    expect(usernameKey('ΟΔΟΣ')).toBe(usernameKey('οδος'));
    expect(usernameKey('Ivan')).not.toBe(usernameKey('Иван'));
    expect(usernameKey('admin')).not.toBe(usernameKey('admin2'));
  });
});

describe('usernameProblem and checkUsername', () => {
  it.each([
    ['NUL', 'ad\u0000min'],
    ['a tab inside', 'ad\tmin'],
    ['zero-width space U+200B', 'ad\u200bmin'],
    ['right-to-left override U+202E', 'admin\u202egpj.exe'],
    ['right-to-left mark U+200F', 'admin\u200f'],
    ['isolate U+2066', '\u2066admin'],
    ['pop isolate U+2069', 'admin\u2069'],
    ['byte order mark U+FEFF', '\ufeffadmin'],
    ['soft hyphen', 'ad\u00admin'],
    ['line separator', 'ad\u2028min'],
  ])('refuses %s: usernameInvalidCharacters', (_, name) => {
    expect(checkUsername(name)).toEqual({ ok: false, code: 'usernameInvalidCharacters' });
  });

  it.each([
    ['Latin with a Cyrillic а', '\u0430dmin'],
    ['Latin with Greek ο', 'r\u03bfot'],
    ['Cyrillic with Greek', 'Ива\u03bd'],
    ['Latin and Cyrillic words', 'Ivan Иван'],
  ])('refuses %s: usernameMixedScripts', (_, name) => {
    expect(checkUsername(name)).toEqual({ ok: false, code: 'usernameMixedScripts' });
  });

  it.each(['admin', 'Jürgen', 'Özil', 'Иван', 'Πέτρος', 'fan2024', 'Hans Müller', 'j.doe', 'anne-marie', 'ultra_1966', '東京'])(
    'allows %j',
    (name) => {
      expect(usernameProblem(name)).toBeNull();
      expect(checkUsername(name)).toEqual({ ok: true, value: name });
    },
  );

  it('refuses empty and over-long names with invalidInput', () => {
    expect(checkUsername('   ')).toEqual({ ok: false, code: 'invalidInput' });
    expect(checkUsername('x'.repeat(51))).toEqual({ ok: false, code: 'usernameTooLong' });
    expect(checkUsername('x'.repeat(50)).ok).toBe(true);
  });
});

describe('auth schemas', () => {
  const issue = (result: { success: boolean; error?: { issues: { message: string }[] } }) => result.error?.issues[0]?.message;

  it('registration stores the normalised name and gives the rule message codes', () => {
    const ok = registerInput.safeParse({ username: '  Ju\u0308rgen ', email: 'j@example.org', password: 'secret-1' });
    expect(ok.success && ok.data.username).toBe('Jürgen');
    const body = (username: string) => ({ username, email: 'x@example.org', password: 'secret-1' });
    expect(issue(registerInput.safeParse(body('ad\u0000min')))).toBe('usernameInvalidCharacters');
    expect(issue(registerInput.safeParse(body('\u0430dmin')))).toBe('usernameMixedScripts');
    expect(issue(registerInput.safeParse(body('')))).toBe('invalidInput');
  });

  it('renaming checks the same rules', () => {
    expect(issue(updateUserInput.safeParse({ username: 'x\u202e' }))).toBe('usernameInvalidCharacters');
    expect(issue(updateUserInput.safeParse({ username: 'Ivan Иван' }))).toBe('usernameMixedScripts');
    const ok = updateUserInput.safeParse({ username: 'ＯＺＩＬ' });
    expect(ok.success && ok.data.username).toBe('OZIL');
  });

  it('sign-in normalises the name but never says which rule it breaks', () => {
    const ok = loginInput.safeParse({ username: ' Ju\u0308rgen ', password: 'x' });
    expect(ok.success && ok.data.username).toBe('Jürgen');
    expect(loginInput.safeParse({ username: 'ad\u0000min', password: 'x' }).success).toBe(true);
    expect(issue(loginInput.safeParse({ username: '  ', password: 'x' }))).toBe('invalidCredentials');
  });
});
