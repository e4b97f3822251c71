import { statementBookAnswer, statementBookInput, statementImportAnswer, type StatementImportAnswer } from '@fankurve/shared';
import { parseStatement, StatementUnreadable, type ParsedStatement } from '../bankStatements/index.js';
import { write } from '../db/store.js';
import { badInput } from '../domain/errors.js';
import { bookStatementLines, keepStatement } from '../domain/money/bankStatements.js';
import type { Api, AppDeps } from './context.js';
import { apiRoute, idParams } from './openapi.js';
import { requireActor } from './session.js';
import { readUploadedFile } from './upload.js';

const tag = 'Ledger';

/** The treasurer's bank statements (docs/architecture.md, "Bank statements"): import a file, book its credits. */
export function bankStatementRoutes(app: Api, deps: AppDeps): void {
  app.openapi(
    apiRoute({
      method: 'post',
      path: '/api/ledger/statements',
      tag,
      summary: 'Import a bank statement (multipart field file: CAMT.053, CAMT.052, MT940 or CSV; admin): its credits, kept a day',
      upload: 'file',
      access: 'admin',
      answers: { 200: statementImportAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      const file = await readUploadedFile(c, 'file');
      if (!file) throw badInput('statementFileMissing');
      let parsed: ParsedStatement;
      try {
        parsed = parseStatement(file);
      } catch (error) {
        if (error instanceof StatementUnreadable) throw badInput('statementUnreadable');
        throw error;
      }
      const kept = await write(deps.store, (w) => keepStatement(w, actor, parsed));
      const answer: StatementImportAnswer = {
        statement: {
          id: kept.id,
          format: parsed.format,
          lines: kept.lines.map(({ amount_cents, ...line }) => ({ ...line, amount: amount_cents / 100 })),
        },
      };
      return c.json(answer, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'post',
      path: '/api/ledger/statements/{id}/book',
      tag,
      summary:
        "Book a kept statement's credits as payments of the chosen members (admin); a line booked before is counted, not booked",
      params: idParams,
      body: statementBookInput,
      access: 'admin',
      answers: { 200: statementBookAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      const { id } = c.req.valid('param');
      const { lines } = c.req.valid('json');
      return c.json(await write(deps.store, (w) => bookStatementLines(w, actor, id, lines)), 200);
    },
  );
}
