import type { MemberDoc } from '@fankurve/shared';
import { useStoreQuery } from '../query.js';

export function useMembers(): MemberDoc[] | undefined {
  return useStoreQuery((docs) => docs.all('members'), []);
}
