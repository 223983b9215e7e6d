/**
 * A GTFS feed we do not import: not a zip, a required file or column missing, too big, or a row
 * that breaks a rule. The message is for the operator running the import, so it says where:
 * `bkk.zip: stop_times.txt line 12: arrival_time '25:99:00' is not a time (H:MM:SS)`.
 */
export class GtfsFormatError extends Error {
  override readonly name = 'GtfsFormatError';

  constructor(
    /** The zip's name without its folder ('bkk.zip'). */
    readonly feed: string,
    /** The file inside the zip at fault ('stop_times.txt'), or the zip's own name when the zip as a whole is. */
    readonly file: string,
    /** The line in `file` (1 is the header), null when no one line is at fault. */
    readonly line: number | null,
    /** What is wrong; when `line` is null it names the file itself ('stops.txt is missing: …'). */
    detail: string,
  ) {
    super(line === null ? `${feed}: ${detail}` : `${feed}: ${file} line ${line}: ${detail}`);
  }
}
