// s3rver ships no types; local-s3.ts narrows the default export to what it uses.
declare module 's3rver' {
  const S3rver: unknown;
  export default S3rver;
}
