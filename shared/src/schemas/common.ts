import { z } from 'zod';
import type { MessageCode } from '../messages.js';

/** Zod issue messages are message codes, so the HTTP layer can answer with the catalogue text. */
export const msg = (code: MessageCode) => ({ error: code });

export const uuidSchema = z.string().uuid();
export const idParamSchema = z.object({ id: z.string().min(1).max(64) });
