import { userNameField } from '@csomag/domain/account';
import { messages } from '@csomag/domain/messages';
import { parcelCreateBodySchema } from '@csomag/domain/parcel';
import { paths } from '@csomag/domain/paths';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, useWatch } from 'react-hook-form';
import type { z } from 'zod';
import { FormError, FormField } from '../../components/form-field.tsx';
import { ParcelDetailFields, PhotoRequiredField } from '../../components/parcel-fields.tsx';
import { SubmitButton } from '../../components/submit-button.tsx';
import { applyServerErrors, serverSummary } from '../../components/use-server-errors.ts';
import { notify } from '../../lib/notify.ts';
import { useNavigate } from '../../lib/router.tsx';
import { useCreateParcel } from './api.ts';
import { UserPicker } from './user-picker.tsx';

const schema = parcelCreateBodySchema
  .pick({ senderAddress: true, receiverAddress: true, category: true, weightGrams: true, photoRequired: true })
  .extend({ senderUser: userNameField });
/** As typed (the weight is text, '1,5 kg'); the schema turns it into the request's whole grams. */
type Values = z.input<typeof schema>;

/** SPEC §2.8: the back office sends a parcel for an existing user; geocoded like the sender's form. */
export function AdminParcelCreatePage() {
  const navigate = useNavigate();
  const create = useCreateParcel();
  const form = useForm<Values, unknown, z.output<typeof schema>>({
    resolver: zodResolver(schema),
    mode: 'onTouched',
    defaultValues: { senderUser: '', senderAddress: '', receiverAddress: '', category: '', weightGrams: '' },
  });
  const senderUser = useWatch({ control: form.control, name: 'senderUser' });
  const { errors, isSubmitting } = form.formState;
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const parcel = await create.mutateAsync(values);
      notify.success(messages.parcelCreated);
      navigate(paths.adminEditParcel(parcel.id));
    } catch (error) {
      applyServerErrors(error, form.setError);
    }
  });
  return (
    <section className="page narrow">
      <h1>{messages.adminCreateParcelTitle}</h1>
      <form className="form card" onSubmit={onSubmit} noValidate>
        <UserPicker
          label={messages.adminSenderUser}
          accountRole="user"
          value={senderUser}
          error={errors.senderUser?.message}
          {...form.register('senderUser')}
        />
        <FormField
          label={messages.senderAddressLabel}
          error={errors.senderAddress?.message}
          {...form.register('senderAddress')}
        />
        <FormField
          label={messages.receiverAddressLabel}
          error={errors.receiverAddress?.message}
          {...form.register('receiverAddress')}
        />
        <ParcelDetailFields register={form.register} errors={errors} control={form.control} />
        <PhotoRequiredField register={form.register} />
        <FormError message={serverSummary(errors)} />
        <SubmitButton busy={isSubmitting}>{messages.adminCreateParcelSubmit}</SubmitButton>
      </form>
    </section>
  );
}
