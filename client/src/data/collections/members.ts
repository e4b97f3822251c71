import type { MemberDoc } from '@fankurve/shared';
import { useQuery } from '../query.js';

export function useMembers(): MemberDoc[] | undefined {
  return useQuery((_db, docs) => docs.live(() => docs.table('members').toArray()), []);
}
