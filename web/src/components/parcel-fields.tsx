import { messages } from '@csomag/domain/messages';
import type { FieldErrors, UseFormRegister } from 'react-hook-form';
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

interface ParcelDetails {
  category: string;
  weightGrams: number;
}

/** The category (free text with suggestions) and the weight (whole grams), as every parcel form asks them. */
export function ParcelDetailFields<T extends ParcelDetails>({
  register,
  errors,
}: {
  register: UseFormRegister<T>;
  errors: FieldErrors<T>;
}) {
  // The generic form narrows to the two fields this component owns.
  const own = register as unknown as UseFormRegister<ParcelDetails>;
  const ownErrors = errors as FieldErrors<ParcelDetails>;
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
        label={messages.weightGramsLabel}
        type="number"
        inputMode="numeric"
        min={1}
        step={1}
        error={ownErrors.weightGrams?.message}
        {...own('weightGrams', { valueAsNumber: true })}
      />
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
