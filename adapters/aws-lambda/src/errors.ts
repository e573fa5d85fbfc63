import { distributedError } from '@seekframe/producer/distributed';

/**
 * Codes this adapter adds (in the error reference, generated from ERROR_DOCS): plan-hash-mismatch, version-mismatch,
 * browser-binary-unavailable, format-not-distributable, variables-too-large, chunk-timeout,
 * segment-missing, lambda-invoke-failed, storage-failed. Errors default to stage `config`: the
 * chunk core's `distributedError`.
 */
export const lambdaError = distributedError;
