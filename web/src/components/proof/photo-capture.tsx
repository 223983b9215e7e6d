import { messages } from '@csomag/domain/messages';
import { useEffect, useId, useState } from 'react';
import { errorMessage } from '../../api/client.ts';
import { useUploadPhoto } from '../../api/proof.ts';
import { scalePhoto } from '../../lib/scale-photo.ts';
import { FormError } from '../form-field.tsx';
import './proof.css';

/**
 * 'Fotó a leadásról' on the runner's card: the camera (or a file), scaled down here, sent at once;
 * the thumbnail shows what was sent, and 'A fotó elmentve.' only once the server has stored it.
 */
export function PhotoCapture({
  parcelId,
  required,
  onSaved,
}: {
  parcelId: string;
  required: boolean;
  /** Once the server has stored the photo: what said a photo was missing is no longer true. */
  onSaved?: () => void;
}) {
  const inputId = useId();
  const upload = useUploadPhoto();
  const [preview, setPreview] = useState<string | null>(null);
  const [prepareFailed, setPrepareFailed] = useState(false);
  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview]);

  const onChange = async (event: React.ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    setPrepareFailed(false);
    upload.reset();
    let photo: Blob;
    try {
      photo = await scalePhoto(file);
    } catch {
      // A format this browser cannot draw: the server decides from the bytes as they are.
      setPrepareFailed(true);
      photo = file;
    }
    setPreview(URL.createObjectURL(photo));
    upload.mutate({ parcelId, photo }, { onSuccess: () => onSaved?.() });
  };

  return (
    <div className="proof-capture">
      {required && <p className="muted">{messages.proofPhotoRequiredNote}</p>}
      <label className="button" htmlFor={inputId}>
        {upload.isSuccess ? messages.proofPhotoRetake : messages.proofPhotoControl}
      </label>
      <input
        id={inputId}
        className="visually-hidden"
        type="file"
        accept="image/*"
        capture="environment"
        aria-label={messages.proofPhotoControl}
        disabled={upload.isPending}
        onChange={onChange}
      />
      {preview && <img className="proof-thumb" src={preview} alt={messages.proofPhotoPreviewAlt} />}
      {upload.isPending && <p className="muted">{messages.proofPhotoUploading}</p>}
      {upload.isSuccess && (
        <p className="success" role="status">
          {messages.proofPhotoSaved}
        </p>
      )}
      <FormError
        message={upload.isError ? errorMessage(upload.error) : prepareFailed ? messages.proofPhotoPrepareFailed : null}
      />
    </div>
  );
}
