import fs from 'node:fs';
import path from 'node:path';
import { IMAGE_MAX_BYTES } from '@fankurve/shared';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { imageSizeOf } from '../src/domain/imageSize.js';
import { createEventVia, createTestApp, IMAGES, listen, openStream, png, uploadFile, type TestApp } from './helpers.js';

/*
 * Team configuration (docs/architecture.md, "Team configuration and theme"): GET/PUT /api/config, POST/DELETE /api/config/logo, the web app
 * manifest served from the configuration, and the change stream telling every device ('config').
 */

const VALID = { team_id: 80, team_name: '1. FC Union Berlin', site_title: 'Eiserne Fans', theme_color: '#C8102E' };

describe('team configuration', () => {
  let t: TestApp;
  let admin: string;
  let member: string;
  const uploadsDir = () => path.join(t.dataDir, 'uploads');
  const uploaded = (name: string) => fs.existsSync(path.join(uploadsDir(), name));
  const settings = async () =>
    Object.fromEntries(
      (await t.runtime.deps.store.db.selectFrom('settings').selectAll().execute()).map((row) => [row.key, row.value]),
    );
  const counter = async () =>
    Number(
      (await t.runtime.deps.store.db.selectFrom('counters').select('value').where('name', '=', 'seq').executeTakeFirstOrThrow())
        .value,
    );
  const uploadLogo = (
    bytes: Uint8Array,
    options: { token?: string | null; field?: string; type?: string; filename?: string } = {},
  ) => uploadFile(t, '/api/config/logo', { token: admin, field: 'logo', bytes, ...options });

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.adminToken();
    member = (await t.member('config-fan')).token;
  });
  afterAll(() => t.close());

  beforeEach(async () => {
    await t.call('DELETE', '/api/config/logo', { token: admin });
  });

  it('answers the default configuration to anyone', async () => {
    const fresh = await createTestApp();
    try {
      const res = await fresh.call('GET', '/api/config');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        success: true,
        config: {
          team_id: 553,
          team_name: '1. FC Union Berlin',
          site_title: 'Fankurve',
          theme_color: '#00397D',
          logo_filename: null,
          time_zone: 'Europe/Berlin',
          account_holder: null,
          iban: null,
          bic: null,
          loyalty_seasons: 2,
          imprint: null,
          privacy_notice: null,
        },
      });
      // Admins also get the daily import switch; members do not.
      const asAdmin = await fresh.call('GET', '/api/config', { token: await fresh.adminToken() });
      expect(asAdmin.body.config).toMatchObject({ team_id: 553, auto_import_matches: false });
      const asMember = await fresh.call('GET', '/api/config', { token: (await fresh.member('config-reader')).token });
      expect(asMember.body.config).not.toHaveProperty('auto_import_matches');
      const version = await fresh.call('GET', '/api/version');
      expect(version.body).toEqual({ success: true, version: expect.any(String) });
    } finally {
      await fresh.close();
    }
  });

  it('saves the four fields trimmed, a team id typed as text, and the daily import switch', async () => {
    const res = await t.call('PUT', '/api/config', {
      token: admin,
      body: { team_id: ' 80 ', team_name: '  1. FC Union Berlin ', site_title: ' Eiserne Fans ', theme_color: '#c8102e' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      success: true,
      message: 'Configuration saved',
      config: { team_id: 80, team_name: '1. FC Union Berlin', site_title: 'Eiserne Fans', theme_color: '#c8102e' },
    });
    expect((await t.call('GET', '/api/config')).body.config).toMatchObject({ team_id: 80, site_title: 'Eiserne Fans' });
    expect((await t.call('GET', '/api/config', { token: admin })).body.config.auto_import_matches).toBe(false);

    const on = await t.call('PUT', '/api/config', { token: admin, body: { ...VALID, auto_import_matches: true } });
    expect(on.body.config.auto_import_matches).toBe(true);
    expect((await settings()).auto_import_matches).toBe('1');
    // Left out: unchanged.
    await t.call('PUT', '/api/config', { token: admin, body: VALID });
    expect((await settings()).auto_import_matches).toBe('1');
    const off = await t.call('PUT', '/api/config', { token: admin, body: { ...VALID, auto_import_matches: false } });
    expect(off.body.config.auto_import_matches).toBe(false);
    expect((await settings()).auto_import_matches).toBe('0');
  });

  it.each([
    ['team_id 0', { team_id: 0 }, 'teamIdInvalid'],
    ['team_id negative', { team_id: -5 }, 'teamIdInvalid'],
    ['team_id a fraction', { team_id: 1.5 }, 'teamIdInvalid'],
    ['team_id text', { team_id: 'Union' }, 'teamIdInvalid'],
    ['team_id 1e3', { team_id: '1e3' }, 'teamIdInvalid'],
    ['team_id empty', { team_id: '' }, 'teamIdInvalid'],
    ['team_id too large', { team_id: 2 ** 31 }, 'teamIdInvalid'],
    ['team_id null', { team_id: null }, 'teamIdInvalid'],
    ['team_id missing', { team_id: undefined }, 'teamIdInvalid'],
    ['team_name blank', { team_name: '   ' }, 'teamNameRequired'],
    ['team_name a number', { team_name: 80 }, 'teamNameRequired'],
    ['team_name too long', { team_name: 'x'.repeat(101) }, 'teamNameTooLong'],
    ['team_name far too long', { team_name: 'x'.repeat(5000) }, 'teamNameTooLong'],
    ['site_title empty', { site_title: '' }, 'siteTitleRequired'],
    ['site_title missing', { site_title: undefined }, 'siteTitleRequired'],
    ['site_title too long', { site_title: 'y'.repeat(61) }, 'siteTitleTooLong'],
    ['theme_color five digits', { theme_color: '#12345' }, 'themeColorInvalid'],
    ['theme_color seven digits', { theme_color: '#1234567' }, 'themeColorInvalid'],
    ['theme_color without #', { theme_color: '123456' }, 'themeColorInvalid'],
    ['theme_color not hex', { theme_color: '#GGGGGG' }, 'themeColorInvalid'],
    ['theme_color a name', { theme_color: 'red' }, 'themeColorInvalid'],
    ['theme_color three digits', { theme_color: '#abc' }, 'themeColorInvalid'],
    ['theme_color missing', { theme_color: undefined }, 'themeColorInvalid'],
    ['auto_import_matches text', { auto_import_matches: 'yes' }, 'invalidInput'],
  ])('refuses %s with 400 and its code, storing nothing', async (_name, change, code) => {
    const before = await settings();
    const seq = await counter();
    const res = await t.call('PUT', '/api/config', { token: admin, body: { ...VALID, ...change } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, code });
    expect(await settings()).toEqual(before);
    expect(await counter()).toBe(seq);
  });

  it('refuses bodies that are no object or no JSON with 400', async () => {
    for (const raw of ['[]', '"text"', 'null', '{"team_id":', '']) {
      const res = await t.call('PUT', '/api/config', { token: admin, raw, headers: { 'content-type': 'application/json' } });
      expect(res.status, raw).toBe(400);
      expect(res.body.success).toBe(false);
    }
  });

  it('lets only admins write: 401 anonymous, 403 members, before looking at the body', async () => {
    for (const body of [VALID, { theme_color: 'nope' }]) {
      const anonymous = await t.call('PUT', '/api/config', { body });
      expect(anonymous.status).toBe(401);
      const fan = await t.call('PUT', '/api/config', { token: member, body });
      expect(fan.status).toBe(403);
      expect(fan.body).toEqual({ success: false, message: 'Admin access required', code: 'adminRequired' });
    }
    expect((await uploadLogo(IMAGES.png, { token: null })).status).toBe(401);
    const fanUpload = await uploadLogo(IMAGES.png, { token: member });
    expect(fanUpload.status).toBe(403);
    expect(fanUpload.body.code).toBe('adminRequired');
    expect((await t.call('DELETE', '/api/config/logo')).status).toBe(401);
    expect((await t.call('DELETE', '/api/config/logo', { token: member })).status).toBe(403);
    expect(fs.existsSync(uploadsDir()) ? fs.readdirSync(uploadsDir()).filter((name) => name.startsWith('logo-')) : []).toEqual(
      [],
    );
  });

  it('takes JPEG, PNG, GIF and WebP by their content, whatever name and type they are sent with', async () => {
    for (const [kind, bytes] of Object.entries({ png: IMAGES.png, jpg: IMAGES.jpeg, gif: IMAGES.gif, webp: IMAGES.webp })) {
      const res = await uploadLogo(bytes, { filename: 'logo.txt', type: 'text/plain' });
      expect(res.status, kind).toBe(200);
      expect(res.body).toMatchObject({ success: true, message: 'Logo uploaded successfully' });
      expect(res.body.filename).toMatch(new RegExp(`^logo-[A-Za-z0-9_-]+\\.${kind}$`));
      expect(res.body.config.logo_filename).toBe(res.body.filename);
      const served = await t.app.request(`/uploads/${res.body.filename}`);
      expect(served.status).toBe(200);
      expect(Buffer.from(await served.arrayBuffer())).toEqual(Buffer.from(bytes));
    }
  });

  it('refuses what is no image, nothing, and more than 5 MB, keeping the logo it has', async () => {
    const first = await uploadLogo(IMAGES.png);
    const kept = first.body.filename as string;
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    const refusals: Array<[string, Promise<{ status: number; body: any }>, number, string]> = [
      ['text sent as a PNG', uploadLogo(IMAGES.text, { type: 'image/png', filename: 'logo.png' }), 400, 'onlyImages'],
      ['an SVG', uploadLogo(svg, { type: 'image/svg+xml', filename: 'logo.svg' }), 400, 'onlyImages'],
      ['another field', uploadLogo(IMAGES.png, { field: 'image' }), 400, 'noFileUploaded'],
      ['an empty file', uploadLogo(new Uint8Array(0)), 400, 'noFileUploaded'],
      [
        'a PNG of 5 MB and one byte',
        uploadLogo(Buffer.concat([IMAGES.png, Buffer.alloc(IMAGE_MAX_BYTES + 1 - IMAGES.png.length)])),
        413,
        'fileTooLarge',
      ],
      ['far more than 5 MB', uploadLogo(Buffer.concat([IMAGES.png, Buffer.alloc(IMAGE_MAX_BYTES * 2)])), 413, 'fileTooLarge'],
    ];
    for (const [name, pending, status, code] of refusals) {
      const res = await pending;
      expect(res.status, name).toBe(status);
      expect(res.body, name).toMatchObject({ success: false, code });
    }
    const json = await t.call('POST', '/api/config/logo', { token: admin, body: { logo: 'x' } });
    expect(json.status).toBe(400);
    expect(json.body.code).toBe('noFileUploaded');
    // Exactly 5 MB is allowed.
    const atLimit = await uploadLogo(Buffer.concat([IMAGES.png, Buffer.alloc(IMAGE_MAX_BYTES - IMAGES.png.length)]));
    expect(atLimit.status).toBe(200);
    expect(uploaded(kept)).toBe(false);
    expect(fs.readdirSync(uploadsDir()).filter((name) => name.startsWith('logo-'))).toEqual([atLimit.body.filename]);
  });

  it('removes the old logo file when a new one comes and when the logo is deleted', async () => {
    const first = (await uploadLogo(IMAGES.png)).body.filename as string;
    expect(uploaded(first)).toBe(true);
    const second = (await uploadLogo(IMAGES.gif)).body.filename as string;
    expect(uploaded(first)).toBe(false);
    expect(uploaded(second)).toBe(true);
    expect((await t.call('GET', '/api/config')).body.config.logo_filename).toBe(second);

    const deleted = await t.call('DELETE', '/api/config/logo', { token: admin });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ success: true, message: 'Logo deleted', config: { logo_filename: null } });
    expect(uploaded(second)).toBe(false);
    expect((await t.app.request(`/uploads/${second}`)).status).toBe(404);
    expect((await settings()).logo_filename).toBeUndefined();
    // Deleting no logo changes nothing.
    const seq = await counter();
    expect((await t.call('DELETE', '/api/config/logo', { token: admin })).status).toBe(200);
    expect(await counter()).toBe(seq);
  });

  it('serves the web app manifest from the configuration', async () => {
    await t.call('PUT', '/api/config', {
      token: admin,
      body: { team_id: 553, team_name: '1. FC Union Berlin', site_title: 'Fankurve', theme_color: '#00397D' },
    });
    const response = await t.app.request('/api/manifest.webmanifest');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/manifest\+json/);
    expect(response.headers.get('cache-control')).toBe('no-cache');
    const manifest = (await response.json()) as { icons: Array<{ src: string }> };
    expect(manifest).toMatchObject({
      name: 'Fankurve',
      short_name: 'Fankurve',
      theme_color: '#00397D',
      start_url: '/events',
      scope: '/',
      display: 'standalone',
    });
    expect(manifest.icons.map((icon: { src: string }) => icon.src)).toEqual([
      '/icons/icon-192.png',
      '/icons/icon-512.png',
      '/icons/icon-maskable-512.png',
    ]);

    await t.call('PUT', '/api/config', {
      token: admin,
      body: { team_id: 80, team_name: 'Union', site_title: 'Eiserne Fans Köpenick', theme_color: '#C8102E' },
    });
    const changed = (await t.call('GET', '/api/manifest.webmanifest')).body;
    // A long title is the name; the short name under the icon is the team name when that is short.
    expect(changed).toMatchObject({ name: 'Eiserne Fans Köpenick', short_name: 'Union', theme_color: '#C8102E' });

    // A square logo of at least 144 px becomes the app's icon.
    const square = (await uploadLogo(png(192, 192))).body.filename as string;
    const withLogo = (await t.call('GET', '/api/manifest.webmanifest')).body;
    expect(withLogo.icons).toEqual([{ src: `/uploads/${square}`, sizes: '192x192', type: 'image/png', purpose: 'any' }]);
    // A small or oblong logo comes first, and the app's own icons stay so that the app can be installed.
    const small = (await uploadLogo(png(64, 32))).body.filename as string;
    const withSmall = (await t.call('GET', '/api/manifest.webmanifest')).body;
    expect(withSmall.icons[0]).toEqual({ src: `/uploads/${small}`, sizes: '64x32', type: 'image/png', purpose: 'any' });
    expect(withSmall.icons).toHaveLength(4);
  });

  it('tells every open device through the change stream, and a refused write tells nobody', async () => {
    const server = await listen(t);
    const stream = await openStream(server.url, member);
    try {
      expect(stream.status).toBe(200);
      await stream.read(/event: ready/);
      // A write before: once its change arrives, a batch of the writes of earlier tests has gone by
      // (batches are told in order, to every open stream).
      await createEventVia(t, admin, { title: 'Before the refusals (H)' });
      const before = (await stream.read(/event: change\ndata: .*"events"/)).length;
      expect((await t.call('PUT', '/api/config', { token: admin, body: { ...VALID, theme_color: 'blue' } })).status).toBe(400);
      expect((await t.call('PUT', '/api/config', { token: member, body: VALID })).status).toBe(403);
      // A later write of another collection: once its change arrives, a change of the refused writes
      // would have come before it or in the same batch (docs/architecture.md, "Change stream").
      await createEventVia(t, admin, { title: 'After the refusals (H)' });
      const later = (await stream.read(new RegExp(`^[\\s\\S]{${before}}[\\s\\S]*event: change\\ndata: .*"events"`))).slice(
        before,
      );
      expect(later).toMatch(/"events"/);
      expect(later).not.toMatch(/"config"/);

      const seen = before + later.length;
      await t.call('PUT', '/api/config', { token: admin, body: { ...VALID, theme_color: '#0000AA' } });
      const text = (await stream.read(new RegExp(`^[\\s\\S]{${seen}}[\\s\\S]*event: change\\ndata: .*"config"`))).slice(seen);
      expect(text).toMatch(/event: change\ndata: \{"collections":\["config"\]\}/);

      const logo = await openStream(server.url, member);
      await logo.read(/event: ready/);
      await uploadLogo(IMAGES.png);
      expect(await logo.read(/"config"/)).toMatch(/"collections":\["config"\]/);
      logo.close();
    } finally {
      stream.close();
      await server.close();
    }
  });
});

describe('image sizes from the header', () => {
  it('reads PNG, GIF, WebP and JPEG', () => {
    expect(imageSizeOf(png(300, 120), 'png')).toEqual({ width: 300, height: 120 });
    expect(imageSizeOf(IMAGES.png, 'png')).toEqual({ width: 1, height: 1 });
    expect(imageSizeOf(IMAGES.gif, 'gif')).toEqual({ width: 1, height: 1 });
    expect(imageSizeOf(IMAGES.webp, 'webp')).toEqual({ width: 1, height: 1 });
    expect(imageSizeOf(IMAGES.jpeg, 'jpg')).toEqual({ width: 1, height: 1 });
  });

  it('says null for a cut-off header', () => {
    expect(imageSizeOf(IMAGES.png.subarray(0, 20), 'png')).toBeNull();
    expect(imageSizeOf(IMAGES.jpeg.subarray(0, 30), 'jpg')).toBeNull();
    expect(imageSizeOf(IMAGES.webp.subarray(0, 16), 'webp')).toBeNull();
  });
});
