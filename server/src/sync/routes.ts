import type { Api, AppDeps } from '../http/context.js';

export function syncRoutes(_app: Api, _deps: AppDeps): void {}
