/**
 * The Lambda functions' environment as the render API's settings rule reads it. SST cannot leave
 * a variable unset: sst.config.ts passes '' for a secret nobody set (`RenderApiToken`,
 * `RenderWebhookSecret`) and for RENDER_MAX_FRAMES when the deploy did not give one. Exactly ''
 * for those names means unset here; anything else (spaces included) is read by renderApiSettings,
 * which refuses a blank or malformed value.
 */
const SST_UNSET_AS_EMPTY = ['RENDER_API_TOKEN', 'RENDER_WEBHOOK_SECRET', 'RENDER_MAX_FRAMES'] as const;

export function lambdaEnv(env: Record<string, string | undefined>): Record<string, string | undefined> {
  const read = { ...env };
  for (const name of SST_UNSET_AS_EMPTY) if (read[name] === '') delete read[name];
  return read;
}
