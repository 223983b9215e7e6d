import type { FieldErrors, UseFormRegister } from 'react-hook-form';
import { FormField } from './form-field.tsx';

const categorySuggestions = ['Irat', 'Könyv', 'Ruha', 'Élelmiszer', 'Elektronika', 'Ajándék', 'Törékeny'];

interface ParcelDetails {
  category: string;
  weightGrams: number;
}

/** Kategória (free text with suggestions) and Súly (gramm) (whole grams), as every parcel form asks them. */
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
        label="Kategória"
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
        label="Súly (gramm)"
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
