import { formatWeight } from '@csomag/domain/format';
import { messages } from '@csomag/domain/messages';
import { readWeight } from '@csomag/domain/weight';
import { useId } from 'react';
import { type Control, type FieldErrors, type UseFormRegister, useWatch } from 'react-hook-form';
import { FormField } from './form-field.tsx';

const categorySuggestions = [
  messages.categoryDocuments,
  messages.categoryBooks,
  messages.categoryClothes,
  messages.categoryFood,
  messages.categoryElectronics,
  messages.categoryGift,
  messages.categoryFragile,
];

/** The fields as typed: the weight is text ('1,5 kg'); the domain's schema reads it into whole grams. */
interface ParcelDetails {
  category: string;
  weightGrams: string | number;
}

/**
 * The category (free text with suggestions) and the weight, as every parcel form asks them. The
 * weight is typed as a person says it ('750 g', '1,5 kg') and shown back in whole grams beside the
 * field before anything is sent ('= 1500 g'); what cannot be read is refused by the schema's words.
 */
export function ParcelDetailFields<T extends ParcelDetails>({
  register,
  errors,
  control,
}: {
  register: UseFormRegister<T>;
  errors: FieldErrors<T>;
  control: Control<T>;
}) {
  // The generic form narrows to the two fields this component owns.
  const own = register as unknown as UseFormRegister<ParcelDetails>;
  const ownErrors = errors as FieldErrors<ParcelDetails>;
  const typed = useWatch({ control: control as unknown as Control<ParcelDetails>, name: 'weightGrams' });
  const reading = typeof typed === 'string' ? readWeight(typed) : null;
  const weightError = ownErrors.weightGrams?.message;
  const weightId = useId();
  const readAsId = `${weightId}-read-as`;
  const readAs = !weightError && reading?.ok ? messages.weightReadAs(formatWeight(reading.grams)) : null;
  return (
    <>
      <FormField
        label={messages.categoryLabel}
        list="category-suggestions"
        autoComplete="off"
        error={ownErrors.category?.message}
        {...own('category')}
      />
      <datalist id="category-suggestions">
        {categorySuggestions.map((category) => (
          <option key={category} value={category} />
        ))}
      </datalist>
      <FormField
        id={weightId}
        label={messages.weightGramsLabel}
        autoComplete="off"
        placeholder={messages.weightPlaceholder}
        error={weightError}
        {...(readAs ? { 'aria-describedby': readAsId } : {})}
        {...own('weightGrams')}
      />
      {/* Always there, so a screen reader hears what the field reads as while it is typed. */}
      <p id={readAsId} className="muted field-live" aria-live="polite" data-testid="weight-read-as">
        {readAs}
      </p>
    </>
  );
}

/** 'Fotó szükséges a leadáskor': the runner then delivers without QR only with a photo (issue 15). */
export function PhotoRequiredField<T extends { photoRequired?: boolean | undefined }>({
  register,
}: {
  register: UseFormRegister<T>;
}) {
  const own = register as unknown as UseFormRegister<{ photoRequired?: boolean | undefined }>;
  return (
    <label className="field inline" title={messages.photoRequiredHint}>
      <input type="checkbox" {...own('photoRequired')} />
      {messages.photoRequiredLabel}
    </label>
  );
}
