import { lazy, Suspense, useSyncExternalStore } from 'react';

// One toast at a time, 5 s each, F8 focuses the region; placement and stores are in
// toaster-region.tsx. That module (Zag's toast stores and machines, about 10 kB compressed)
// loads with the first toast, not with the page: most visits never show one. `toaster` hands
// out the toast's id at once and passes the toast on when the module has arrived.

export interface ToastInput {
  title: string;
  description?: string;
  type?: 'success' | 'error' | 'info' | 'warning';
  /** A button in the toast (e.g. Undo); the toast closes when it is pressed. */
  action?: { label: string; onClick: () => void };
  /** How long the toast stays, in ms (default 5 s): longer for a toast whose action the seller may want. */
  duration?: number;
}

let regionModule: Promise<typeof import('./toaster-region')> | undefined;
function loadRegion() {
  regionModule ??= import('./toaster-region');
  return regionModule;
}

let toastCount = 0;
const firstToastListeners = new Set<() => void>();

export const toaster = {
  /** Shows a toast, replacing whatever toast is on screen (one at a time). */
  create(input: ToastInput): string {
    toastCount += 1;
    const id = `toast-${toastCount}`;
    loadRegion().then(
      (region) => region.showToast({ type: 'info', ...input, id }),
      (error: unknown) => console.error('The notification code failed to load', error),
    );
    if (toastCount === 1) firstToastListeners.forEach((listener) => listener());
    return id;
  },
  /**
   * Closes whatever toast is on screen. For a success that shows no toast of its own (the
   * next step appears instead), so an earlier error does not stay up contradicting it.
   */
  dismiss(): void {
    // No toast was ever asked for: nothing to close, and no reason to load the region.
    if (toastCount === 0) return;
    loadRegion().then(
      (region) => region.dismissToasts(),
      (error: unknown) => console.error('The notification code failed to load', error),
    );
  },
  success(description: string, title = 'Success'): string {
    return toaster.create({ type: 'success', title, description });
  },
  /** The destructive toast of the error catalogue: title "Error". */
  error(description: string): string {
    return toaster.create({ type: 'error', title: 'Error', description });
  },
};

function onFirstToast(listener: () => void) {
  firstToastListeners.add(listener);
  return () => firstToastListeners.delete(listener);
}

const ToasterRegion = lazy(() => loadRegion().then((module) => ({ default: module.ToasterRegion })));

/** Mounts the toast region once the first toast has been asked for. */
export function Toaster() {
  const needed = useSyncExternalStore(onFirstToast, () => toastCount > 0);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <ToasterRegion />
    </Suspense>
  );
}
