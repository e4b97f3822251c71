import { isCollectionModule, type CollectionModule } from './module.js';
import * as registered from './registry.js';

/** Every collection in a folder of its own (registry.ts), for the wiring: routes, sync, web push. */
export const COLLECTION_MODULES: readonly CollectionModule[] = Object.values(registered).filter(isCollectionModule);
