import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type * as PageUnloadModule from '../src/data/pageUnload.js';

/**
 * data/pageUnload.ts, which client/vite.config.ts puts in place of the `unload` package
 * (docs/architecture.md, Client data layer): the leader's farewell runs on `pagehide`, never on
 * `unload`, and not when the page only goes into the back/forward cache.
 */
type PageUnload = typeof PageUnloadModule;

class FakeWindow extends EventTarget {
  readonly added: string[] = [];
  override addEventListener(...args: Parameters<EventTarget['addEventListener']>): void {
    this.added.push(args[0]);
    super.addEventListener(...args);
  }
}

function pagehide(persisted: boolean): Event {
  return Object.assign(new Event('pagehide'), { persisted });
}

describe('the unload stand-in', () => {
  const fakeWindow = new FakeWindow();
  let unload: PageUnload;

  beforeAll(async () => {
    vi.stubGlobal('window', fakeWindow);
    unload = await import('../src/data/pageUnload.js');
  });
  afterEach(() => unload.removeAll());

  it('listens to pagehide only, once', () => {
    unload.add(() => undefined);
    unload.add(() => undefined);
    expect(fakeWindow.added).toEqual(['pagehide']);
  });

  it('runs every listener once when the page is discarded', async () => {
    const farewell = vi.fn();
    unload.add(farewell);
    fakeWindow.dispatchEvent(pagehide(false));
    fakeWindow.dispatchEvent(pagehide(false));
    expect(farewell).toHaveBeenCalledTimes(1);
    expect(unload.getSize()).toBe(0);
  });

  it('keeps the listeners of a page that goes into the back/forward cache', () => {
    const farewell = vi.fn();
    unload.add(farewell);
    fakeWindow.dispatchEvent(pagehide(true));
    expect(farewell).not.toHaveBeenCalled();
    expect(unload.getSize()).toBe(1);
  });

  it('remove() and run() work as in the unload package', async () => {
    const removed = vi.fn();
    const ran = vi.fn(() => 'done');
    unload.add(removed).remove();
    expect(unload.add(ran).run()).toBe('done');
    expect(await unload.runAll()).toEqual([]);
    expect(removed).not.toHaveBeenCalled();
    expect(ran).toHaveBeenCalledTimes(1);
  });
});
