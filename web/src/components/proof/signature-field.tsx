import { messages } from '@csomag/domain/messages';
import type { Signature } from '@csomag/domain/proof';
import { useEffect, useRef } from 'react';
import SignaturePad from 'signature_pad';
import './proof.css';

/**
 * The receiver's signature on screen (signature_pad 5), optional: `onChange` gets the PNG and the
 * strokes after every stroke, and null when the pad is cleared ('Törlés') or empty.
 */
export function SignatureField({ onChange }: { onChange: (signature: Signature | null) => void }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const pad = useRef<SignaturePad | null>(null);
  const changed = useRef(onChange);
  changed.current = onChange;

  useEffect(() => {
    const element = canvas.current;
    if (!element) return;
    // One canvas pixel per CSS pixel: a small PNG, plenty for a signature.
    element.width = element.offsetWidth || 300;
    element.height = element.offsetHeight || 160;
    const signaturePad = new SignaturePad(element, { penColor: '#111', backgroundColor: 'rgba(0,0,0,0)' });
    pad.current = signaturePad;
    const report = () =>
      changed.current(
        signaturePad.isEmpty()
          ? null
          : { image: signaturePad.toDataURL('image/png'), strokes: signaturePad.toData() as Signature['strokes'] },
      );
    signaturePad.addEventListener('endStroke', report);
    return () => {
      signaturePad.removeEventListener('endStroke', report);
      signaturePad.off();
      pad.current = null;
    };
  }, []);

  return (
    <div className="signature-field">
      <p className="field-label">{messages.signatureLabel}</p>
      <p className="muted">{messages.signatureHint}</p>
      <canvas ref={canvas} className="signature-pad" aria-label={messages.signaturePadLabel} role="img" />
      <div className="card-actions">
        <button
          type="button"
          className="button"
          onClick={() => {
            pad.current?.clear();
            changed.current(null);
          }}
        >
          {messages.signatureClear}
        </button>
      </div>
    </div>
  );
}
