import {
  errorAnswer,
  MESSAGES,
  statementBookAnswer,
  statementBookInput,
  statementCsvMappingNeededAnswer,
  statementImportAnswer,
  type StatementCsvMappingNeededAnswer,
  type StatementImportAnswer,
} from '@fankurve/shared';
import {
  csvMappingOf,
  CsvMappingNeeded,
  parseStatement,
  StatementUnreadable,
  type CsvMapping,
  type ParsedStatement,
} from '../bankStatements/index.js';
import { write } from '../db/store.js';
import { badInput } from '../domain/errors.js';
import { bookStatementLines, keepStatement, keptCsvMapping } from '../domain/money/bankStatements.js';
import type { Api, AppDeps } from './context.js';
import { apiRoute, idParams, z } from './openapi.js';
import { requireActor } from './session.js';
import { readFormText, readUploadedFile } from './upload.js';

const tag = 'Ledger';

/** The treasurer's bank statements (docs/architecture.md, "Bank statements"): import a file, book its credits. */
export function bankStatementRoutes(app: Api, deps: AppDeps): void {
  app.openapi(
    apiRoute({
      method: 'post',
      path: '/api/ledger/statements',
      tag,
      summary:
        'Import a bank statement (multipart field file: CAMT.053, CAMT.052, MT940 or CSV; optional field mapping: the CSV columns as JSON, kept by the club; admin): its credits, kept a day',
      upload: 'file',
      access: 'admin',
      answers: {
        200: statementImportAnswer,
        400: {
          schema: z.union([statementCsvMappingNeededAnswer, errorAnswer]),
          description:
            'A CSV layout no mapping fits (`statementCsvMappingNeeded`, with its columns); or the usual refusal: no file, unreadable, a bad mapping',
        },
      },
    }),
    async (c) => {
      const actor = requireActor(c);
      const file = await readUploadedFile(c, 'file');
      if (!file) throw badInput('statementFileMissing');
      const sentText = await readFormText(c, 'mapping');
      const sent = sentText === null || sentText === '' ? null : csvMappingOf(sentText);
      if (sentText && !sent) throw badInput('statementCsvMappingInvalid');
      const kept = csvMappingOf(await keptCsvMapping(deps.store.db));
      let parsed: ParsedStatement;
      try {
        parsed = parseStatement(file, sent ?? kept ?? undefined);
      } catch (error) {
        if (error instanceof CsvMappingNeeded) {
          // A mapping sent for this file that names columns it lacks is a bad mapping, not a question.
          if (sent) throw badInput('statementCsvMappingInvalid');
          return c.json(mappingNeeded(error.columns, kept), 400);
        }
        if (error instanceof StatementUnreadable) throw badInput('statementUnreadable');
        throw error;
      }
      const csvMapping = parsed.format === 'csv' && sent ? sent : undefined;
      const statement = await write(deps.store, (w) => keepStatement(w, actor, parsed, { csvMapping }));
      const answer: StatementImportAnswer = {
        statement: {
          id: statement.id,
          format: parsed.format,
          lines: statement.lines.map(({ amount_cents, pays, ...line }) => ({
            ...line,
            amount: amount_cents / 100,
            pays: pays && { tickets: pays.tickets, credit: pays.credit_cents / 100 },
          })),
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

/** The answer that asks the treasurer which column holds what. */
function mappingNeeded(columns: string[], kept: CsvMapping | null): StatementCsvMappingNeededAnswer {
  const code = 'statementCsvMappingNeeded';
  return { success: false, code, message: MESSAGES[code], columns, mapping: kept };
}
