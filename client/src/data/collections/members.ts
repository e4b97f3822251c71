import type { MemberDoc } from '@fankurve/shared';
import { plainDocs, useQuery } from '../query.js';

export function useMembers(): MemberDoc[] | undefined {
  return useQuery((db) => db.members.find().$.pipe(plainDocs<MemberDoc>()), []);
}
