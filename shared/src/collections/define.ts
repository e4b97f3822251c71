import type { SyncDeclaration } from '../docs/declaration.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any document type: a declaration's fields are typed by its own document
type AnyDeclaration = SyncDeclaration<any, string>;

/**
 * What a collection in its own folder tells the rest of shared (docs/architecture.md, Adding a synced
 * collection): its sync declaration and its message codes. The registry (registry.ts) finds these
 * among the exports of collections/index.ts, so a new collection is its folder and one line there.
 */
export interface CollectionDefinition<
  Name extends string = string,
  Declaration extends AnyDeclaration = AnyDeclaration,
  Messages extends Readonly<Record<string, string>> = Readonly<Record<string, string>>,
> {
  readonly kind: 'collection';
  readonly name: Name;
  readonly declaration: Declaration;
  readonly messages: Messages;
}

export function defineCollection<
  const Name extends string,
  Declaration extends AnyDeclaration,
  const Messages extends Readonly<Record<string, string>>,
>(name: Name, parts: { declaration: Declaration; messages: Messages }): CollectionDefinition<Name, Declaration, Messages> {
  if (parts.declaration.name !== name) throw new Error(`The collection ${name} declares the name ${parts.declaration.name}`);
  return { kind: 'collection', name, ...parts };
}

export const isCollectionDefinition = (value: unknown): value is CollectionDefinition =>
  typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'collection';
