import { memberImportAnswer, memberImportInput } from '@fankurve/shared';
import { MEMBER_IMPORT_LINK_DAYS } from '@fankurve/shared/rules/memberImport';
import { write } from '../db/store.js';
import { getSiteConfig } from '../domain/club/settings.js';
import { importMembers, previewMemberImport, type ImportedMember } from '../domain/people/memberImport.js';
import { accountCreatedMail } from '../mail/templates.js';
import type { Api, AppDeps } from './context.js';
import { apiRoute } from './openapi.js';
import { requireActor } from './session.js';

const tag = 'Users';

/** POST /api/users/import (docs/architecture.md, Member import; docs/product.md, Users). */
export function memberImportRoutes(app: Api, deps: AppDeps): void {
  app.openapi(
    apiRoute({
      method: 'post',
      path: '/api/users/import',
      tag,
      summary:
        'Members from a CSV list (admin): every row with its problem; with `confirm: true` the rows without one are created and mailed a link to set their password (valid 7 days)',
      body: memberImportInput,
      access: 'admin',
      answers: { 200: memberImportAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      const { csv, confirm } = c.req.valid('json');
      if (!confirm) {
        const rows = await previewMemberImport(deps.store.db, actor, csv);
        return c.json({ success: true as const, rows, created: 0 }, 200);
      }
      const { rows, created } = await write(deps.store, (w) => importMembers(w, actor, csv));
      // After the answer, one after the other: a list of thousands must not open thousands of connections.
      if (created.length > 0) deps.mailer.track(sendLinks(deps, created));
      return c.json({ success: true as const, rows, created: created.length }, 200);
    },
  );
}

/** Mails each imported member their link to set a password (PUBLIC_URL/reset-password/{token}). */
async function sendLinks(deps: AppDeps, members: ImportedMember[]): Promise<void> {
  const { site_title: siteTitle } = await getSiteConfig(deps.store.db);
  const base = deps.config.publicUrl.replace(/\/+$/, '');
  for (const { token, user } of members) {
    try {
      await deps.mailer.send(
        accountCreatedMail({
          to: user.email,
          username: user.username,
          language: user.language,
          link: `${base}/reset-password/${token}`,
          siteTitle,
          days: MEMBER_IMPORT_LINK_DAYS,
        }),
      );
    } catch (error) {
      // One address the mail server refuses does not stop the others; "Forgot password?" still helps that member.
      console.error(`Mailing the link to the imported member ${user.username} failed:`, error);
    }
  }
}
