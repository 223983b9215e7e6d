import { useSyncExternalStore } from 'react';
import type { ToastContent } from 'react-toastify';
import { errorMessage } from '../api/client.ts';

type Toastify = typeof import('react-toastify');

let toastify: Promise<Toastify> | undefined;
const listeners = new Set<() => void>();

/**
 * react-toastify loads with the first toast, so a page that never shows one never downloads it.
 * Toasts asked for before the container mounts wait in react-toastify's own queue.
 */
function load(): Promise<Toastify> {
  if (!toastify) {
    toastify = import('react-toastify').catch((error: unknown) => {
      // Not loaded (offline without the service worker's copy): the next toast tries again.
      toastify = undefined;
      throw error;
    });
    for (const listener of listeners) listener();
  }
  return toastify;
}

/** Whether a toast has been asked for yet: the layout mounts the container from then on. */
export const useToastsWanted = () =>
  useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => toastify !== undefined,
    () => false,
  );

/** Success is only ever shown for what the server confirmed; failures show the server's words. */
export const notify = {
  success: (text: string) => void load().then(({ toast }) => toast.success(text)),
  info: (text: string, toastId?: string) =>
    void load().then(({ toast }) => toast.info(text, toastId ? { toastId } : {})),
  error: (error: unknown) => void load().then(({ toast }) => toast.error(errorMessage(error))),
  /** A toast with its own controls (a button in it), up until the person acts on it. */
  custom: (content: ToastContent, toastId: string) =>
    void load().then(({ toast }) => toast(content, { toastId, autoClose: false, closeOnClick: false })),
};
