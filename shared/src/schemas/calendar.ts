import { z } from 'zod';

/**
 * The last part of the feed's path, `{token}.ics` (docs/architecture.md, Calendar feed): one
 * parameter, as the router reads no suffix after a parameter.
 */
export const calendarFileParams = z.object({ file: z.string().min(1).max(200) });
