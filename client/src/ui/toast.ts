import { TOAST_DURATION_MS } from '@fankurve/shared/constants';
import { useSyncExternalStore } from 'react';

export type ToastKind = 'info' | 'success' | 'error';

export interface Toast {
  id: number;
  kind: ToastKind;
  text: string;
}

/** A tiny toast store usable from components and from plain modules (session, sync notices). */
let toasts: readonly Toast[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const MAX_VISIBLE = 4;

function emit(): void {
  for (const listener of listeners) listener();
}

export function dismissToast(id: number): void {
  const next = toasts.filter((toast) => toast.id !== id);
  if (next.length === toasts.length) return;
  toasts = next;
  emit();
}

/** Shows a message for TOAST_DURATION_MS (3 s); the same text is not stacked twice. */
export function showToast(text: string, kind: ToastKind = 'info', durationMs: number = TOAST_DURATION_MS): number {
  const existing = toasts.find((toast) => toast.text === text && toast.kind === kind);
  if (existing) dismissToast(existing.id);
  const id = nextId++;
  toasts = [...toasts, { id, kind, text }].slice(-MAX_VISIBLE);
  emit();
  setTimeout(() => dismissToast(id), durationMs);
  return id;
}

export const toastError = (text: string) => showToast(text, 'error');
export const toastSuccess = (text: string) => showToast(text, 'success');

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useToasts(): readonly Toast[] {
  return useSyncExternalStore(
    subscribe,
    () => toasts,
    () => toasts,
  );
}
