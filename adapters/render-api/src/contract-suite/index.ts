export { runRenderApiContract, contractSettingsEnv, type RenderApiContractOptions, type ContractTarget, type ContractSettings } from './run-render-api-contract.js';
export { folderKeys, rawGet } from './contract-http.js';
export { startWebhookReceiver, type WebhookReceiver, type ReceivedDelivery } from './webhook-receiver.js';
