import { messages } from '@csomag/domain/messages';
import type { ReactNode } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { FormError, FormField } from '../../components/form-field.tsx';
import { applyServerErrors, serverSummary } from '../../components/use-server-errors.ts';
import { notify } from '../../lib/notify.ts';
import { Link, useNavigate } from '../../lib/router.tsx';

/** SPEC §2.8's delete pages: the page and its title; the confirmation (or what it waits for) inside. */
export function DeletePage({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="page narrow">
      <h1>{title}</h1>
      {children}
    </section>
  );
}

/**
 * A question, 'Törlés' and 'Vissza'. Deleted (as the server confirmed), the page goes back to the
 * list; a refusal stays on the page with the server's words, beside the reason when it is about it.
 */
export function ConfirmDelete({
  question,
  askReason = false,
  onDelete,
  deletedMessage,
  backTo,
  disabled = false,
  children,
}: {
  question: string;
  /** A parcel a runner carries is deleted only with a reason (the server asks for it too). */
  askReason?: boolean;
  onDelete: (reason: string | undefined) => Promise<unknown>;
  deletedMessage: string;
  backTo: string;
  disabled?: boolean;
  children?: ReactNode;
}) {
  const navigate = useNavigate();
  const form = useForm<{ reason: string }>({ defaultValues: { reason: '' } });
  const reason = useWatch({ control: form.control, name: 'reason' });
  const { errors, isSubmitting } = form.formState;
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await onDelete(askReason ? values.reason : undefined);
      notify.success(deletedMessage);
      navigate(backTo);
    } catch (error) {
      applyServerErrors(error, form.setError);
    }
  });
  return (
    <>
      <form onSubmit={onSubmit} noValidate>
        <p>{question}</p>
        {askReason && (
          <FormField label={messages.adminReason} error={errors.reason?.message} {...form.register('reason')} />
        )}
        <FormError message={serverSummary(errors)} />
        <div className="card-actions">
          <button
            type="submit"
            className="button danger"
            // The button waits for a reason long enough for the server to take it.
            disabled={isSubmitting || disabled || (askReason && reason.trim().length < 3)}
          >
            {messages.adminDelete}
          </button>
          <Link className="button" to={backTo}>
            {messages.adminBack}
          </Link>
        </div>
      </form>
      {children}
    </>
  );
}
