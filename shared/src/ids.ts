import { v7, validate, version } from 'uuid';

/** UUIDv7 ids everywhere; clients create them for documents made offline. */
export const newId = (): string => v7();

export function isValidId(id: string): boolean {
  return validate(id) && version(id) === 7;
}
