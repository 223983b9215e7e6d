import { messages } from '@csomag/domain/messages';
import type { Parcel } from '@csomag/domain/parcel';
import type { ProofInfo } from '@csomag/domain/proof';
import { useEffect, useState } from 'react';
import { useProofImage, useProofs } from '../../api/proof.ts';
import './proof.css';

/** One proof: its image read with the session into a blob URL, or why it is not there. */
function ProofImage({ parcelId, proof }: { parcelId: string; proof: ProofInfo }) {
  const image = useProofImage(parcelId, proof.kind, proof.sha256, proof.available);
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!image.data) return;
    const made = URL.createObjectURL(image.data);
    setUrl(made);
    return () => URL.revokeObjectURL(made);
  }, [image.data]);
  const photo = proof.kind === 'photo';
  return (
    <figure className={`proof ${proof.kind}`}>
      <figcaption>{photo ? messages.proofPhotoHeading : messages.proofSignatureHeading}</figcaption>
      {!proof.available && <p className="muted">{messages.proofRemoved}</p>}
      {proof.available && url && (
        <img
          src={url}
          width={proof.width}
          height={proof.height}
          alt={photo ? messages.proofPhotoAlt(parcelId) : messages.proofSignatureAlt(parcelId)}
        />
      )}
      {image.isError && <p className="error">{messages.proofLoadFailed}</p>}
      <p className="muted proof-hash">{messages.proofHash(proof.sha256)}</p>
    </figure>
  );
}

/**
 * The proof of a delivered parcel (photo, signature) for its sender, its receiver and the back
 * office; nothing at all when there is none.
 */
export function ProofSection({ parcel }: { parcel: Pick<Parcel, 'id' | 'status'> }) {
  const delivered = parcel.status === 'delivered';
  const proofs = useProofs(parcel.id, delivered);
  const items = proofs.data?.items ?? [];
  if (!delivered || items.length === 0) return null;
  return (
    <section className="proof-section" aria-label={messages.proofSectionTitle}>
      <h3>{messages.proofSectionTitle}</h3>
      {items.map((proof) => (
        <ProofImage key={proof.kind} parcelId={parcel.id} proof={proof} />
      ))}
    </section>
  );
}
