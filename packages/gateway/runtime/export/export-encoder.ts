/** @module What an export's encoder is: how its records become the bytes of the answer, a page at a time. */
import type { ChangeEntry } from '../changes/change-feed';

export interface ExportEncoder {
  readonly contentType: string;
  readonly extension: string;
  /** What comes before the first record (the CSV header row, Parquet's magic number). */
  head(): string | Uint8Array;
  encode(entries: readonly ChangeEntry[]): string | Uint8Array;
  /** What comes after the last record (Parquet's footer), if anything. */
  tail?(): string | Uint8Array;
}
