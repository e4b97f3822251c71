/**
 * RxDB document schemas (JSON Schema in RxDB's dialect). The server's document mappers produce exactly
 * these shapes; a test validates every collection's documents against them, because a pulled document
 * that fails the client schema stalls replication.
 */
export const idField = { type: 'string', maxLength: 64 } as const;
export const nullableString = { type: ['string', 'null'] } as const;
export const seqField = { type: 'integer', minimum: 0, maximum: 1e15, multipleOf: 1 } as const;

/** Every replicated document carries its server-assigned seq (read-only for clients; 0 before the first push). */
export interface SyncedDoc {
  id: string;
  seq: number;
}
