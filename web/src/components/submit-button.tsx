import type { ReactNode } from 'react';
import { useHydrated } from '../lib/use-hydrated.ts';

/**
 * A form's submit button, disabled while the form is being sent. On a page rendered at build time
 * it also waits for the script: before that, the browser would send the form itself, with the
 * fields in the URL.
 */
export function SubmitButton({ busy = false, children }: { busy?: boolean; children: ReactNode }) {
  const hydrated = useHydrated();
  return (
    <button className="button primary" type="submit" disabled={busy || !hydrated}>
      {children}
    </button>
  );
}
