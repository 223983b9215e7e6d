/** A text widened from its Hungarian literal: any string, or a function of the same parameters. */
type Widen<T> = T extends string ? string : T extends (...args: infer A) => string ? (...args: A) => string : never;

/**
 * What a language gives for a catalogue (the whole one, or one area's file): the same keys, each
 * a text or a function of the same parameters. A translation typed so fails to compile while a key
 * is missing, extra or takes other parameters.
 */
export type Translation<T> = { readonly [K in keyof T]: Widen<T[K]> };
