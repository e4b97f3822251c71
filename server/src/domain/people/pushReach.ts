import type { PushTopic } from '@fankurve/shared/push';
import type { ExpressionBuilder } from 'kysely';
import type { Database, UsersTable } from '../../db/schema.js';

/** A query over the users as `u`. */
type OverUsers = ExpressionBuilder<Database & { u: UsersTable }, 'u'>;

/**
 * Whether a push of `topic` reaches the user `u` (docs/architecture.md, Web Push): a device
 * subscribed, and the topic not switched off. The reminders ask it before they record a reminder.
 */
export const pushReaches =
  (topic: PushTopic) =>
  ({ and, exists, not, selectFrom }: OverUsers) =>
    and([
      exists(selectFrom('push_subscriptions as s').select('s.id').whereRef('s.user_id', '=', 'u.id')),
      not(
        exists(
          selectFrom('push_topics_off as o').select('o.user_id').whereRef('o.user_id', '=', 'u.id').where('o.topic', '=', topic),
        ),
      ),
    ]);
