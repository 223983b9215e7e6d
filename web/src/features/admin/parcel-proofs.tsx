import { formatTimestamp } from '@csomag/domain/format';
import { messages } from '@csomag/domain/messages';
import { type ProofInfo, proofImagePath } from '@csomag/domain/proof';
import { useId } from 'react';
import { Empty } from '../../components/query-state.tsx';

/**
 * A parcel's photo and signature as the back office weighs a case on them (a 'Nem érkezett meg'
 * report, an incident), the images read with the session (never a public URL).
 */
export function ParcelProofs({ parcelId, proofs }: { parcelId: string; proofs: readonly ProofInfo[] }) {
  const titleId = useId();
  return (
    <section className="card" aria-labelledby={titleId}>
      <h2 id={titleId}>{messages.reportProofs}</h2>
      {proofs.length === 0 ? (
        <Empty text={messages.reportProofsNone} />
      ) : (
        <ul>
          {proofs.map((proof) => {
            const label = proof.kind === 'photo' ? messages.reportProofPhoto : messages.reportProofSignature;
            return (
              <li key={proof.kind}>
                <strong>{label}</strong> · {formatTimestamp(proof.createdAt)}
                <p className="muted mono">{messages.reportProofHash(proof.sha256)}</p>
                {proof.available ? (
                  <img src={proofImagePath(parcelId, proof.kind)} alt={label} style={{ maxWidth: '100%' }} />
                ) : (
                  <p className="muted">{messages.reportProofRemoved}</p>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
