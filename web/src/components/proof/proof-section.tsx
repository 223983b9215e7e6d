import { messages } from '@csomag/domain/messages';
import type { Parcel } from '@csomag/domain/parcel';
import type { ProofInfo } from '@csomag/domain/proof';
import { useEffect, useState } from 'react';
import { useProofImage, useProofs } from '../../api/proof.ts';
import './proof.css';

/** Whether the image read is the one stored (its SHA-256); null until known, or where the browser cannot hash. */
function useVerified(image: Blob | undefined, sha256: string): boolean | null {
  const [verified, setVerified] = useState<boolean | null>(null);
  useEffect(() => {
    setVerified(null);
    // crypto.subtle exists only in a secure context (HTTPS, localhost).
    if (!image || !globalThis.crypto?.subtle) return;
    let current = true;
    void image
      .arrayBuffer()
      .then((bytes) => crypto.subtle.digest('SHA-256', bytes))
      .then((digest) => {
        const hex = [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
        if (current) setVerified(hex === sha256.toLowerCase());
      })
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [image, sha256]);
  return verified;
}

/**
 * One proof: its image read with the session into a blob URL, or why it is not there. The back
 * office reads its SHA-256; the parties are told it was checked (the image is the one stored).
 */
function ProofImage({ parcelId, proof, audit }: { parcelId: string; proof: ProofInfo; audit: boolean }) {
  const image = useProofImage(parcelId, proof.kind, proof.sha256, proof.available);
  const [url, setUrl] = useState<string | null>(null);
  const verified = useVerified(image.data, proof.sha256);
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
      {audit ? (
        <p className="muted proof-hash">{messages.proofHash(proof.sha256)}</p>
      ) : (
        verified && <p className="muted">{messages.proofVerified}</p>
      )}
    </figure>
  );
}

/**
 * The proof of a delivered parcel (photo, signature) for its sender, its receiver and the back
 * office (`audit`: with each image's SHA-256); nothing at all when there is none.
 */
export function ProofSection({ parcel, audit = false }: { parcel: Pick<Parcel, 'id' | 'status'>; audit?: boolean }) {
  const delivered = parcel.status === 'delivered';
  const proofs = useProofs(parcel.id, delivered);
  const items = proofs.data?.items ?? [];
  if (!delivered || items.length === 0) return null;
  return (
    <section className="proof-section" aria-label={messages.proofSectionTitle}>
      <h3>{messages.proofSectionTitle}</h3>
      {items.map((proof) => (
        <ProofImage key={proof.kind} parcelId={parcel.id} proof={proof} audit={audit} />
      ))}
    </section>
  );
}
