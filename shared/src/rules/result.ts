import type { CoreMessageCode } from '../messages.js';

/** What a rule says: the value it allows, or the message code of why not. */
export type RuleResult<T, Code extends string = CoreMessageCode> = { ok: true; value: T } | { ok: false; code: Code };
