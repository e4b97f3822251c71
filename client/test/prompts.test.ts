import { INSTALL_PROMPT_DELAY_MS, PUSH_PROMPT_DELAY_MS } from '@fankurve/shared/constants';
import { describe, expect, it } from 'vitest';
import {
  installStateOf,
  isIosSafari,
  nextPrompt,
  shouldOfferInstall,
  type InstallState,
  type PromptFacts,
  type PromptKind,
} from '../src/pwa/promptRules.js';

const UA = {
  iphoneSafari:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  iphoneChrome:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/124.0.6367.88 Mobile/15E148 Safari/604.1',
  iphoneFirefox:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/125.0 Mobile/15E148 Safari/605.1.15',
  ipadDesktopMode:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
  androidChrome:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36',
  desktopChrome: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
};

describe('installStateOf', () => {
  const none = { standalone: false, installedHere: false, canPrompt: false, iosSafari: false };

  it('standalone display counts as installed, whatever else the browser says', () => {
    expect(installStateOf({ ...none, standalone: true, canPrompt: true, iosSafari: true })).toBe('installed');
    expect(installStateOf({ ...none, installedHere: true, canPrompt: true })).toBe('installed');
  });

  it('a kept install offer makes the app installable; iOS Safari gets the guide; else nothing', () => {
    expect(installStateOf({ ...none, canPrompt: true })).toBe('available');
    expect(installStateOf({ ...none, iosSafari: true })).toBe('ios');
    expect(installStateOf(none)).toBe('unavailable');
  });
});

describe('isIosSafari', () => {
  it('knows Safari on iPhone and on an iPad that asks for desktop pages', () => {
    expect(isIosSafari(UA.iphoneSafari)).toBe(true);
    expect(isIosSafari(UA.ipadDesktopMode, 5)).toBe(true);
  });

  it('leaves out a Mac, other browsers on iOS, Android and desktops', () => {
    expect(isIosSafari(UA.ipadDesktopMode, 0)).toBe(false); // a Mac: no touch screen
    expect(isIosSafari(UA.iphoneChrome)).toBe(false);
    expect(isIosSafari(UA.iphoneFirefox)).toBe(false);
    expect(isIosSafari(UA.androidChrome, 5)).toBe(false);
    expect(isIosSafari(UA.desktopChrome)).toBe(false);
  });
});

const fresh: PromptFacts = {
  signedIn: true,
  mustChangePassword: false,
  install: 'available',
  installShownOnDevice: false,
  hasPushPrompt: true,
  pushTurnTaken: false,
  open: null,
};

describe('nextPrompt', () => {
  it('offers installing 1 s after sign-in when installable, not installed and not shown before', () => {
    expect(nextPrompt(fresh)).toEqual({ kind: 'install', delayMs: INSTALL_PROMPT_DELAY_MS });
    expect(INSTALL_PROMPT_DELAY_MS).toBe(1_000);
  });

  it('never offers installing when installed, not installable, or shown on this device before', () => {
    for (const install of ['installed', 'unavailable', 'ios'] as InstallState[]) {
      expect(shouldOfferInstall({ install, installShownOnDevice: false }), install).toBe(false);
      expect(nextPrompt({ ...fresh, install })?.kind, install).toBe('push');
    }
    expect(nextPrompt({ ...fresh, installShownOnDevice: true })).toEqual({ kind: 'push', delayMs: PUSH_PROMPT_DELAY_MS });
    expect(PUSH_PROMPT_DELAY_MS).toBe(3_000);
  });

  it('shows nothing signed out, before a forced password change, or on top of an open prompt', () => {
    expect(nextPrompt({ ...fresh, signedIn: false })).toBeNull();
    expect(nextPrompt({ ...fresh, mustChangePassword: true })).toBeNull();
    expect(nextPrompt({ ...fresh, open: 'install' })).toBeNull();
    expect(nextPrompt({ ...fresh, open: 'push', installShownOnDevice: true, pushTurnTaken: true })).toBeNull();
  });

  it('gives the push prompt one turn per visit, and none without a push prompt to show', () => {
    const installDone = { ...fresh, installShownOnDevice: true };
    expect(nextPrompt({ ...installDone, pushTurnTaken: true })).toBeNull();
    expect(nextPrompt({ ...installDone, hasPushPrompt: false })).toBeNull();
    expect(nextPrompt({ ...fresh, hasPushPrompt: false })?.kind).toBe('install');
  });
});

/**
 * The sequence as prompts.tsx runs it: a timer for the next prompt, restarted whenever the next prompt
 * changes; the prompt opens when it fires, and the member closes it after `answerAfterMs`. Returns
 * when each prompt opened (ms after sign-in).
 */
function simulate(options: {
  facts: Partial<PromptFacts>;
  /** The browser's install offer arrives at this time (ms after sign-in). */
  offerAt?: number;
  answerAfterMs?: number;
  until?: number;
}): Array<{ kind: PromptKind; at: number }> {
  const answerAfter = options.answerAfterMs ?? 2_000;
  const facts: PromptFacts = { ...fresh, ...options.facts };
  const shown: Array<{ kind: PromptKind; at: number }> = [];
  let timer = null as { kind: PromptKind; firesAt: number } | null;
  let closesAt: number | null = null;
  for (let now = 0; now <= (options.until ?? 30_000); now += 100) {
    if (options.offerAt !== undefined && now === options.offerAt) facts.install = 'available';
    if (closesAt !== null && now >= closesAt) {
      facts.open = null;
      closesAt = null;
    }
    const next = nextPrompt(facts);
    if (!next) timer = null;
    else if (timer?.kind !== next.kind) timer = { kind: next.kind, firesAt: now + next.delayMs };
    if (timer && now >= timer.firesAt) {
      if (timer.kind === 'install') facts.installShownOnDevice = true;
      else facts.pushTurnTaken = true;
      facts.open = timer.kind;
      shown.push({ kind: timer.kind, at: now });
      closesAt = now + answerAfter;
      timer = null;
    }
  }
  return shown;
}

describe('the prompt sequence', () => {
  it('install after 1 s, push 3 s after the install prompt was closed', () => {
    expect(simulate({ facts: {}, answerAfterMs: 2_000 })).toEqual([
      { kind: 'install', at: 1_000 },
      { kind: 'push', at: 6_000 },
    ]);
  });

  it('push after 3 s when there is no install prompt (installed, not installable, or shown before)', () => {
    for (const facts of [{ install: 'installed' as const }, { install: 'unavailable' as const }, { installShownOnDevice: true }])
      expect(simulate({ facts })).toEqual([{ kind: 'push', at: 3_000 }]);
  });

  it('an install offer that arrives while the push prompt waits goes first, 1 s after it arrived', () => {
    expect(simulate({ facts: { install: 'unavailable' }, offerAt: 2_000, answerAfterMs: 1_000 })).toEqual([
      { kind: 'install', at: 3_000 },
      { kind: 'push', at: 7_000 },
    ]);
  });

  it('an install offer after the push prompt is still shown once, after it was closed', () => {
    expect(simulate({ facts: { install: 'unavailable' }, offerAt: 4_000, answerAfterMs: 2_000 })).toEqual([
      { kind: 'push', at: 3_000 },
      { kind: 'install', at: 6_000 },
    ]);
  });

  it('nothing for a user who must change the password first, and only the install prompt without a push slot', () => {
    expect(simulate({ facts: { mustChangePassword: true } })).toEqual([]);
    expect(simulate({ facts: { hasPushPrompt: false } })).toEqual([{ kind: 'install', at: 1_000 }]);
  });
});
