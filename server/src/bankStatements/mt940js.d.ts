/** mt940js ships no types: the part of its API the MT940 import uses (its README and lib/parser.js). */
declare module 'mt940js' {
  export class Parser {
    constructor(options?: { no86Structure?: boolean });
    parse(text: string): unknown[];
  }
}
