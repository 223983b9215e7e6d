import { Fragment, type ReactNode } from 'react';

// Stands in for a parameter while the text is split around it: a private-use character no text holds.
const slot = (index: number) => `\uE000${index}\uE000`;
const SLOTS = /\uE000(\d+)\uE000/;

/**
 * A catalogue text whose parameters are elements (a parcel id in monospace, a name in bold): the
 * words stay in the catalogue, in the order the language wants them, and the markup stays here.
 */
export function RichText({ text, values }: { text: (...parts: string[]) => string; values: ReactNode[] }) {
  // split() with a capture group alternates the text and the numbers of the slots between it.
  const pieces = text(...values.map((_, index) => slot(index))).split(SLOTS);
  return pieces.map((piece, at) => (at % 2 === 0 ? piece : <Fragment key={piece}>{values[Number(piece)]}</Fragment>));
}
