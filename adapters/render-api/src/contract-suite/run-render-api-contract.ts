import type { AnswerMode } from '../render-api-options.js';

/** A running deployment under test, on 127.0.0.1. */
export interface ContractTarget {
  baseUrl: string;
  stop(): Promise<void>;
}

export interface RenderApiContractOptions {
  /** Names the describe block, e.g. "modal-function (python)". */
  name: string;
  answerMode: AnswerMode;
  /**
   * Starts the deployment serving the contract-suite composition (`contractCompositionDir()`
   * from `@seekframe/render-api/node`: 160x90, 1 s, 10 fps, variables `title` (string, maxLength
   * 24) and `size` (number 10-60)), with the given settings. Called once per settings group.
   */
  start(settings: ContractSettings): Promise<ContractTarget>;
  /** Skip the headless Chromium preview checks (never for a template's own suite). */
  skipBrowser?: boolean;
}

/** What a group of tests needs the deployment to be started with. */
export interface ContractSettings {
  /** RENDER_API_TOKEN */
  token?: string;
  /** ALLOW_CUSTOM_HTML=true */
  allowCustomHtml?: boolean;
  /** RENDER_MAX_CONCURRENT */
  maxConcurrentRenders?: number;
  /** RENDER_MAX_FRAMES */
  maxFrames?: number;
}

export function runRenderApiContract(options: RenderApiContractOptions): void {
  void options;
  throw new Error('runRenderApiContract: not yet implemented (landing in the next commit)');
}
