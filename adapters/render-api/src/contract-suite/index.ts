export {
  runRenderApiContract,
  contractSettingsEnv,
  type RenderApiContractOptions,
  type ContractTarget,
  type ContractSettings,
  type ContractCapability,
} from './run-render-api-contract.js';
export { folderKeys, probeVideo, rawGet, type VideoFacts } from './contract-http.js';
export {
  BUNDLED,
  PARITY,
  MIN_PSNR_DB,
  COMPARE_WIDTH,
  COMPARE_HEIGHT,
  capturePreview,
  measurePreview,
  psnr640,
  reportPsnr,
  type CapturedPreview,
  type ParityComposition,
} from './preview-parity.js';
export { referenceFrames } from './reference-frames.js';
export { checkoutCli } from './checkout-cli.js';
// The webhook checks alone, for a template that runs the rest of the contract elsewhere.
export { defineWebhookContract } from './contract-webhooks.js';
export { startWebhookReceiver, thisNetworkUrl, type WebhookReceiver, type ReceivedDelivery } from './webhook-receiver.js';
export { freePort, waitUntilAnswers, within, type WaitUntilAnswersOptions } from './local-server.js';
export { REQUEST_ANSWERS_MS, RENDER_FINISHES_MS, RENDER_TEST_MS } from './contract-http.js';
