import { expect, type APIRequestContext, type Browser, type BrowserContextOptions, type Page } from '@playwright/test';

export { png } from '../../server/test/png.js';

export const ADMIN = { username: 'admin', password: process.env.E2E_ADMIN_PASSWORD ?? 'admin-e2e-pass' };

let counter = 0;
/** Names unique across test runs against the same server. */
export const uniqueName = (prefix: string) => `${prefix}${Date.now().toString(36)}${counter++}`;

async function json(response: Awaited<ReturnType<APIRequestContext['get']>>): Promise<any> {
  const body = await response.json();
  if (!response.ok()) throw new Error(`${response.url()} answered ${response.status()}: ${JSON.stringify(body)}`);
  return body;
}

/** The REST API, for arranging what a test needs and for checking what reached the server. */
export class Api {
  private constructor(
    private readonly request: APIRequestContext,
    readonly token: string,
  ) {}

  static async signIn(request: APIRequestContext, username: string, password: string): Promise<Api> {
    const body = await json(await request.post('/api/auth/login', { data: { username, password } }));
    return new Api(request, body.token);
  }

  private get headers() {
    return { authorization: `Bearer ${this.token}` };
  }

  get(path: string) {
    return this.request.get(path, { headers: this.headers }).then(json);
  }

  post(path: string, data: unknown) {
    return this.request.post(path, { headers: this.headers, data }).then(json);
  }

  put(path: string, data?: unknown) {
    return this.request.put(path, { headers: this.headers, data }).then(json);
  }

  async createEvent(title: string, date: string): Promise<string> {
    const body = await this.post('/api/events', { title, date, location: 'Stadion', ticket_price: 25.5 });
    return body.event.id;
  }

  /** Registers a member through the API and approves them as admin. */
  async registeredMember(username: string, password = 'fan-pass'): Promise<{ id: string; username: string; password: string }> {
    const registered = await json(
      await this.request.post('/api/auth/register', { data: { username, email: `${username}@example.org`, password } }),
    );
    await this.put(`/api/auth/users/${registered.user.id}/approve`);
    return { id: registered.user.id, username, password };
  }
}

/**
 * Until the service worker controls the page: it installs after the page has loaded and precaches
 * the whole app (about 1 MB), which on a busy two-core machine can take well over ten seconds.
 */
export async function untilServiceWorkerControls(page: Page): Promise<void> {
  await page.waitForFunction(() => navigator.serviceWorker?.controller !== null, null, { timeout: 40_000 });
}

/** Signs in through the login form (German labels: the default language). */
export async function signInThroughForm(page: Page, username: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Benutzername').fill(username);
  await page.getByLabel('Passwort').fill(password);
  await page.getByRole('button', { name: 'Anmelden' }).click();
  await expect(page).toHaveURL(/\/events$/);
  await expect(page.getByRole('heading', { name: 'Termine' })).toBeVisible();
}

/** A new browser context (its own storage: another device) with a page signed in through the login form. */
export async function memberPage(
  browser: Browser,
  member: { username: string; password: string },
  options: BrowserContextOptions = {},
) {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  await signInThroughForm(page, member.username, member.password);
  return { context, page };
}

/** An event card by its title. */
export const eventCard = (page: Page, title: string) => page.getByRole('article', { name: title });

/** A date some days ahead, as the API takes it. */
export function daysAhead(days: number, time = '15:30'): string {
  const date = new Date(Date.now() + days * 86_400_000);
  return `${date.toISOString().slice(0, 10)} ${time}`;
}

/**
 * Until the prompts after sign-in have nothing more to show (`data-prompts="done"`, set by the
 * signed-in shell): a check that no prompt appears waits for this, not for a span of time.
 */
export async function promptsSettled(page: Page): Promise<void> {
  await expect(page.locator('html')).toHaveAttribute('data-prompts', 'done', { timeout: 20_000 });
}

/** Opens a section folded on a phone above the events list (news, polls) by its heading's toggle. */
export async function unfold(page: Page, heading: string): Promise<void> {
  await page.getByRole('button', { name: new RegExp(`^${heading}`), expanded: false }).click();
}
