import {
  errorAnswer,
  logoUploadedAnswer,
  MESSAGES,
  siteConfigAnswer,
  siteConfigSavedAnswer,
  webManifestAnswer,
  type ManifestIcon,
  type SiteConfigView,
  type WebManifestAnswer,
} from '@fankurve/shared';
import { siteConfigInput } from '@fankurve/shared/schemas/config';
import { isAdmin } from '../domain/actor.js';
import { DomainError } from '../domain/errors.js';
import { deleteLogo, getSiteConfig, setLogo, updateSiteConfig, type SiteConfig } from '../domain/club/settings.js';
import { UploadStore } from '../domain/uploads.js';
import { write } from '../db/store.js';
import type { Api, AppDeps } from './context.js';
import { failure } from './errors.js';
import { apiRoute } from './openapi.js';
import { requireActor } from './session.js';
import { readUploadedFile } from './upload.js';

const tag = 'Config';

/** Who reads the configuration: the club's account is for members, the daily import switch for admins. */
type Reader = 'anonymous' | 'member' | 'admin';

/**
 * The REST shape of the configuration (`siteConfigView`) with the club's time zone; the daily import
 * switch only for admins (the form shows it; it is nobody else's business), the club's bank account
 * only for signed-in users (null to an anonymous caller).
 */
function toRestConfig(config: SiteConfig, timeZone: string, reader: Reader): SiteConfigView {
  const {
    logo_size: _size,
    auto_import_matches,
    account_holder,
    iban,
    bic,
    reminder_days_before,
    deadline_reminder_hours,
    payment_reminder_days,
    retention_years,
    ...rest
  } = config;
  const account = reader === 'anonymous' ? { account_holder: null, iban: null, bic: null } : { account_holder, iban, bic };
  // The admin's form also shows the reminder times (docs/architecture.md, Answer deadlines and reminders).
  const adminOnly =
    reader === 'admin'
      ? { auto_import_matches, reminder_days_before, deadline_reminder_hours, payment_reminder_days, retention_years }
      : {};
  return { ...rest, ...account, ...adminOnly, time_zone: timeZone };
}

/** The web app manifest's fixed part: what an installed app is, whatever the club. */
const MANIFEST_BASE = {
  id: '/events',
  description: 'Spieltage, Tickets und Mitfahrgelegenheiten deiner Fangruppe',
  lang: 'de',
  background_color: '#F3F5F9',
  display: 'standalone',
  start_url: '/events',
  scope: '/',
} as const;

/** The app's own icons (client/public/icons): installable whatever logo the club has. */
const DEFAULT_ICONS: ManifestIcon[] = [
  { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
  { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
  { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
];

const IMAGE_TYPES: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp' };

/** A short name fits under a launcher icon (about 12 characters): the site title, else the team name. */
const SHORT_NAME_LENGTH = 12;

/**
 * The web app manifest from the configuration: the site title as name, the theme colour, and the
 * club's logo as the icon. Browsers install an app only with a square icon of at least 144 px of a
 * known size: a logo that is one replaces the app's icons; any other logo comes first and the app's
 * icons stay behind it.
 */
export function webManifest(config: SiteConfig): WebManifestAnswer {
  const shortName = [config.site_title, config.team_name].find((name) => [...name].length <= SHORT_NAME_LENGTH);
  const icons: ManifestIcon[] = [];
  let logoIsIcon = false;
  if (config.logo_filename) {
    const extension = config.logo_filename.split('.').pop() ?? '';
    const size = /^(\d+)x(\d+)$/.exec(config.logo_size ?? '');
    const [width, height] = size ? [Number(size[1]), Number(size[2])] : [0, 0];
    logoIsIcon = width === height && width >= 144;
    icons.push({
      src: `/uploads/${config.logo_filename}`,
      ...(size ? { sizes: `${width}x${height}` } : {}),
      ...(IMAGE_TYPES[extension] ? { type: IMAGE_TYPES[extension] } : {}),
      purpose: 'any',
    });
  }
  if (!logoIsIcon) icons.push(...DEFAULT_ICONS);
  return {
    ...MANIFEST_BASE,
    name: config.site_title,
    short_name: shortName ?? config.site_title,
    theme_color: config.theme_color,
    icons,
  };
}

/**
 * Team configuration (docs/architecture.md, "Team configuration and theme"): GET /api/config
 * (public), PUT /api/config, POST and DELETE /api/config/logo (admin), and the web app manifest
 * built from it. Every write reaches the open devices through the change stream ('config').
 */
export function configRoutes(app: Api, deps: AppDeps): void {
  const uploads = new UploadStore(deps.config.uploadsDir);
  const rest = (config: SiteConfig, reader: Reader = 'admin') => toRestConfig(config, deps.config.clubTimeZone, reader);

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/api/config',
      tag,
      summary:
        "Team id and name, site title, theme colour, logo, time zone and loyalty seasons (public); the club's bank account for signed-in users, the daily import switch and the reminder times for admins",
      access: 'public',
      answers: { 200: siteConfigAnswer },
    }),
    async (c) => {
      const user = c.get('user');
      const reader: Reader = user === null ? 'anonymous' : isAdmin(user) ? 'admin' : 'member';
      return c.json({ success: true as const, config: rest(await getSiteConfig(deps.store.db), reader) }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'put',
      path: '/api/config',
      tag,
      summary:
        "Save team id, team name, site title, theme colour ('#' and six hex digits), the daily import switch, the club's account (holder, IBAN, BIC), the loyalty seasons, the reminder times and the days before a reminder to pay (admin)",
      body: siteConfigInput,
      // A member learns that the route is admin-only before anything about the body; updateSiteConfig checks anyway.
      access: 'admin',
      answers: { 200: siteConfigSavedAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      const config = await write(deps.store, (w) => updateSiteConfig(w, actor, c.req.valid('json')));
      return c.json({ success: true as const, message: MESSAGES.configSaved, config: rest(config) }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'post',
      path: '/api/config/logo',
      tag,
      summary: 'Upload the logo (multipart field logo; JPEG, PNG, GIF or WebP up to 5 MB; admin)',
      upload: 'logo',
      access: 'admin',
      answers: {
        200: logoUploadedAnswer,
        500: { schema: errorAnswer, description: 'The file could not be stored (`logoUploadError`)' },
      },
    }),
    async (c) => {
      const actor = requireActor(c);
      const file = await readUploadedFile(c, 'logo');
      let config: SiteConfig;
      try {
        config = await write(deps.store, (w) => setLogo(w, uploads, actor, file));
      } catch (error) {
        if (error instanceof DomainError) throw error;
        // The file could not be stored (disk full, permissions): 'Error uploading logo'.
        console.error('Storing the logo failed:', error);
        return failure(c, 500, 'logoUploadError');
      }
      return c.json(
        { success: true as const, message: MESSAGES.logoUploaded, filename: config.logo_filename, config: rest(config) },
        200,
      );
    },
  );

  app.openapi(
    apiRoute({
      method: 'delete',
      path: '/api/config/logo',
      tag,
      summary: 'Delete the logo (admin)',
      access: 'admin',
      answers: { 200: siteConfigSavedAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      const config = await write(deps.store, (w) => deleteLogo(w, uploads, actor));
      return c.json({ success: true as const, message: MESSAGES.logoDeleted, config: rest(config) }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/api/manifest.webmanifest',
      tag,
      summary: "The web app manifest: the site title as name, the theme colour and the club's logo as icon (public)",
      access: 'public',
      answers: { 200: { schema: webManifestAnswer, mediaType: 'application/manifest+json' } },
    }),
    async (c) => {
      const manifest = webManifest(await getSiteConfig(deps.store.db));
      return c.json(manifest, 200, {
        'Content-Type': 'application/manifest+json; charset=utf-8',
        // Re-read on every use: a changed name, colour or logo must arrive.
        'cache-control': 'no-cache',
      });
    },
  );
}
