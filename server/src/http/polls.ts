import {
  createPollInput,
  errorAnswer,
  messageAnswer,
  MESSAGES,
  pollAnswer,
  pollDetailAnswer,
  pollsAnswer,
  pollVoteInput,
  updatePollInput,
} from '@fankurve/shared';
import { write } from '../db/store.js';
import type { Actor } from '../domain/actor.js';
import {
  castVote,
  createPoll,
  deletePoll,
  listPolls,
  pollDetail,
  pollFields,
  updatePoll,
  type PollView,
} from '../domain/news/polls.js';
import type { Api, AppDeps } from './context.js';
import { apiRoute, idParams } from './openapi.js';
import { requireActor } from './session.js';

const tag = 'Polls';

/** `{ poll, options, my_votes }`: GET one, and the writes' answers. */
const detailOf = (view: PollView) => ({ poll: pollFields(view), options: view.options, my_votes: view.myVotes });

/** Polls: admins ask, change, close and delete them; every signed-in member reads them and votes. */
export function pollRoutes(app: Api, deps: AppDeps): void {
  const timeZone = deps.config.clubTimeZone;
  const detail = (actor: Actor, id: string) => pollDetail(deps.store.db, actor, id, new Date().toISOString());

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/api/polls',
      tag,
      summary: 'Every poll, open ones first, each part newest first; counts only where the caller may see them',
      answers: { 200: pollsAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      const views = await listPolls(deps.store.db, actor, new Date().toISOString());
      return c.json({ success: true as const, polls: views.map(pollFields) }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/api/polls/{id}',
      tag,
      summary: "A poll with its options (counts null while hidden from the caller) and the caller's own choice",
      params: idParams,
      answers: { 200: pollDetailAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      return c.json({ success: true as const, ...detailOf(await detail(actor, c.req.valid('param').id)) }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'post',
      path: '/api/polls',
      tag,
      summary: 'Ask a poll (admin): question, 2–10 options, multiple, results, closes_at (club time), event_id',
      body: createPollInput,
      answers: { 201: pollAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      const row = await write(deps.store, (w) => createPoll(w, actor, c.req.valid('json'), timeZone));
      return c.json({ success: true as const, message: MESSAGES.pollSaved, ...detailOf(await detail(actor, row.id)) }, 201);
    },
  );

  app.openapi(
    apiRoute({
      method: 'put',
      path: '/api/polls/{id}',
      tag,
      summary: 'Change the question and/or the closing time (admin); a closing time already past closes the poll',
      params: idParams,
      body: updatePollInput,
      answers: {
        200: pollAnswer,
        409: { schema: errorAnswer, description: 'The poll is closed: its closing time stays (`pollClosed`)' },
      },
    }),
    async (c) => {
      const actor = requireActor(c);
      const id = c.req.valid('param').id;
      await write(deps.store, (w) => updatePoll(w, actor, id, c.req.valid('json'), timeZone));
      return c.json({ success: true as const, message: MESSAGES.pollSaved, ...detailOf(await detail(actor, id)) }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'delete',
      path: '/api/polls/{id}',
      tag,
      summary: 'Delete a poll and its votes (admin)',
      params: idParams,
      answers: { 200: messageAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      await write(deps.store, (w) => deletePoll(w, actor, c.req.valid('param').id));
      return c.json({ success: true as const, message: MESSAGES.pollDeleted }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'put',
      path: '/api/polls/{id}/vote',
      tag,
      summary: "Vote: replaces the caller's choice ([] withdraws it); one option unless the poll takes several",
      params: idParams,
      body: pollVoteInput,
      answers: {
        200: pollAnswer,
        409: { schema: errorAnswer, description: 'The poll is closed (`pollClosed`), decided by the vote’s arrival' },
      },
    }),
    async (c) => {
      const actor = requireActor(c);
      const id = c.req.valid('param').id;
      await write(deps.store, (w) => castVote(w, actor, id, c.req.valid('json').option_ids));
      return c.json({ success: true as const, message: MESSAGES.pollVoteSaved, ...detailOf(await detail(actor, id)) }, 200);
    },
  );
}
