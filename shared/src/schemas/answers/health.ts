import { z } from 'zod';
import { successAnswer } from './common.js';

/** GET /api/health when the instance can serve: the database answers and every migration has run. */
export const healthAnswer = successAnswer({
  status: z.literal('ok'),
  database: z.literal('ok'),
  migrations: z.literal('current'),
});
export type HealthAnswer = z.infer<typeof healthAnswer>;

/** GET /api/health's 503: the same fields, naming the part that fails. */
export const healthFailureAnswer = z.strictObject({
  success: z.literal(false),
  status: z.literal('unavailable'),
  /** 'unavailable': the database did not answer (in time). */
  database: z.enum(['ok', 'unavailable']),
  /** 'pending': a migration of the server's folder has not run; 'unknown': it could not be read. */
  migrations: z.enum(['current', 'pending', 'unknown']),
});
export type HealthFailureAnswer = z.infer<typeof healthFailureAnswer>;
