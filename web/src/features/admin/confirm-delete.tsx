import type { UseMutationResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { errorMessage } from '../../api/client.ts';
import { FormError } from '../../components/form-field.tsx';
import { notify } from '../../lib/notify.ts';

/**
 * SPEC §2.8's delete pages: a question, 'Törlés' and 'Vissza'. Deleted (as the server confirmed)
 * or not, both lead back to the list; a refusal stays on the page with the server's words.
 */
export function ConfirmDelete({
  title,
  question,
  remove,
  deletedMessage,
  backTo,
  disabled = false,
  fields,
  children,
}: {
  title: string;
  question: string;
  remove: UseMutationResult<unknown, Error, void>;
  deletedMessage: string;
  backTo: string;
  disabled?: boolean;
  /** What the deletion needs besides the confirmation (a reason), above the buttons. */
  fields?: ReactNode;
  children?: ReactNode;
}) {
  const navigate = useNavigate();
  return (
    <section className="page narrow">
      <h1>{title}</h1>
      <p>{question}</p>
      {fields}
      <FormError message={remove.isError ? errorMessage(remove.error) : null} />
      <div className="card-actions">
        <button
          type="button"
          className="button danger"
          disabled={remove.isPending || disabled}
          onClick={() =>
            remove.mutate(undefined, {
              onSuccess: () => {
                notify.success(deletedMessage);
                navigate(backTo);
              },
            })
          }
        >
          Törlés
        </button>
        <Link className="button" to={backTo}>
          Vissza
        </Link>
      </div>
      {children}
    </section>
  );
}
