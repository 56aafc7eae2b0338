/**
 * The storage layer's own errors. Storage knows no HTTP: the framework's one error path
 * (src/http/error-response.ts `answerOf`) gives each its answer.
 */

/**
 * A write lost its race to parallel writes in every round `withWriteRetry` (src/db/write.ts) gave
 * it. Answered 409 `rest_write_conflict`: the client may simply retry.
 */
export class WriteConflict extends Error {
  constructor() {
    super("write conflict");
    this.name = "WriteConflict";
  }
}
