/**
 * Ends the current task so the browser can paint and handle input before the next piece of start-up
 * work (docs/architecture.md, Client data layer): opening 13 collections or starting 13 replications
 * in one go would be one long task each. `scheduler.yield()` where the browser has it (the rest of
 * the work keeps its place in the queue), else a macrotask.
 */
export function yieldToMain(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}
