import { mergeAttendanceAnswer, type MemberAttendanceFields, type Scope } from '@fankurve/shared';
import { useEffect, useRef, useState } from 'react';
import { useSyncStatus } from '../../data/index.js';

/** Whether the server can be reached: admin work is online REST, so its controls wait for a connection. */
export function useOnline(): boolean {
  return useSyncStatus().online;
}

/** The roles this screen distinguishes (docs/product.md, Who uses it). */
export interface Access {
  userId: string;
  /** The member's role, for the shared rules (`mayDeleteEvent`). */
  scope: Scope;
  isAdmin: boolean;
  /** The event's creator or an admin: edit, delete, image. */
  canManage: boolean;
  online: boolean;
  /**
   * The event is past and takes no more answers (shared rule `checkEventOpenForAnswers`): the own
   * answer and a member's guests are read-only; requests and the admin's table stay open.
   */
  answersClosed: boolean;
  /**
   * The event's answer deadline has passed for this member (shared rule `checkAnswerDeadlineOpen`;
   * never for an admin): their own answer and their guests are read-only, requests stay open.
   */
  deadlinePassed: boolean;
  /** The club's wall clock now (`useClubNow`), for the deadline's time left. */
  clubNow: string;
}

/**
 * What an answer change shows at once: the fields the shared rule sets for it (`mergeAttendanceAnswer`:
 * needs and has a ticket exclude each other), as the data layer and the server apply it.
 */
export function answerOverlay(
  current: MemberAttendanceFields,
  change: Partial<MemberAttendanceFields>,
): Partial<MemberAttendanceFields> {
  const merged = mergeAttendanceAnswer(current, { ...change, status: change.status ?? current.status });
  if (!merged.ok) return change;
  const fields = Object.keys(merged.value) as (keyof MemberAttendanceFields)[];
  return Object.fromEntries(
    fields.filter((key) => key in change || merged.value[key] !== current[key]).map((key) => [key, merged.value[key]]),
  );
}

/**
 * Shows a change at once while the local database writes it (a controlled checkbox would otherwise
 * flip back until the database emits). `begin(patch)` lays the patch over the stored document; a field
 * stops being overlaid as soon as the stored value equals it; once every write has settled
 * (`end(false)`), the next version of the document shows the stored truth (also when the server's
 * answer changed it back). `end(true)` (a failed write) drops the patch at once.
 */
export function useOverlay<T extends object>(
  base: T | null,
): [shown: T | null, begin: (patch: Partial<T>) => void, end: (failed: boolean) => void] {
  const [state, setState] = useState<{ patch: Partial<T>; settledOn: T | null | undefined }>({ patch: {}, settledOn: undefined });
  const pending = useRef(0);
  const latest = useRef(base);
  useEffect(() => {
    latest.current = base;
  }, [base]);

  let shown = base;
  if (base !== null && (state.settledOn === undefined || state.settledOn === base)) {
    const live = Object.entries(state.patch).filter(([key, value]) => (base as Record<string, unknown>)[key] !== value);
    if (live.length > 0) shown = { ...base, ...Object.fromEntries(live) };
  }

  const begin = (patch: Partial<T>) => {
    pending.current++;
    setState((previous) => ({
      patch: { ...(previous.settledOn === undefined ? previous.patch : {}), ...patch },
      settledOn: undefined,
    }));
  };
  const end = (failed: boolean) => {
    pending.current = failed ? 0 : Math.max(0, pending.current - 1);
    if (failed) setState({ patch: {}, settledOn: undefined });
    else if (pending.current === 0) setState((previous) => ({ ...previous, settledOn: latest.current }));
  };
  return [shown, begin, end];
}
