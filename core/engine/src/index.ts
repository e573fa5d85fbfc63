export type { BrowserInfo } from './browser/browser-info.js';
export { findBrowser, findCachedHeadlessShell, type FindBrowserOptions } from './browser/find-browser.js';
export { probeBeginFrame, probeBrowser, type BrowserProbe } from './browser/probe-begin-frame.js';
export { findFfmpeg, CHECKED_ENCODERS, type CheckedEncoder, type FfmpegInfo } from './system/find-ffmpeg.js';
export { installCommand, hostSystem, type SystemTool, type HostSystem } from './system/install-hint.js';
export {
  autoWorkerBounds,
  autoWorkerCount,
  parseWorkers,
  MAX_WORKERS,
  type AutoWorkerBounds,
  type AutoWorkerInput,
} from './pool/worker-count.js';
export { allowedCpus } from './system/pin-to-cpu.js';
export { findOnPath } from './system/find-executable.js';
export {
  readImageVersions,
  fontPackageVersions,
  dpkgVersions,
  imageVersionsSchema,
  FONT_PACKAGES,
  type ImageVersions,
} from './system/package-versions.js';
export { launchBrowser, type BrowserSession, type LaunchOptions } from './browser/launch-browser.js';
export { browserArgs, type CaptureMode } from './browser/browser-flags.js';
export { openCapturePage, type CapturePage, type CapturePageOptions, type CapturedFrame } from './capture/capture-page.js';
export { collectPageProblems, describePageProblem, pageProblemKey, type PageProblem } from './capture/page-problems.js';
export { createFrameEncoder, type EncodeResult, type FrameEncoder } from './encode/create-frame-encoder.js';
export {
  sweepStaleTemps,
  processAlive,
  tempFolderPrefix,
  tempPathFor,
  prepareTemp,
  commitOutput,
  removeTemp,
  removeOwnTempsSync,
} from './system/atomic-output.js';
export { stopNow } from './system/stop-now.js';
export {
  encoderOptionsSchema,
  parseEncoderOptions,
  encoderRuleProblems,
  OUTPUT_FORMATS,
  QUALITIES,
  CRF_MAX,
  CRF_LIMIT,
  BITRATE_PATTERN,
  GIF_LOOP_MAX,
  QUALITY_PRESETS,
  RAW_X264_PRESETS,
  x264Preset,
  INPUT_FORMATS,
  type InputFormat,
  type EncoderOptions,
  type OutputFormat,
  type Quality,
} from './encode/encoder-options.js';
export { buildEncoderArgs, segmentH264Args, GIF_MAX_FPS } from './encode/encoder-args.js';
export { probeMedia, type MediaInfo, type MediaStream, type MediaColor } from './media/probe-media.js';
export {
  extractVideoFrames,
  chooseVideoFrameFormat,
  type ExtractOptions,
  type ExtractResult,
  type VideoFrameFormat,
} from './media/extract-video-frames.js';
export { mixAudio, audioTrackSchema, type AudioTrack } from './media/mix-audio.js';
export { renderFramePool, type FramePoolOptions, type FramePoolResult } from './pool/render-frame-pool.js';
export {
  openPoolWorker,
  startPoolWorker,
  type OpenPoolWorkerOptions,
  type PoolWorker,
  type WorkerLaunch,
} from './pool/open-pool-worker.js';
export { listenOnLoopback } from './system/listen-on-loopback.js';
export {
  createBrowserPool,
  type BrowserPool,
  type BrowserPoolOptions,
  type BrowserPoolStats,
  type BrowserSource,
} from './pool/browser-pool.js';
export { contextProxy } from './pool/context-proxy.js';
export { guardBrowserMemory, type MemoryGuard, type MemoryGuardOptions, type MemoryExceeded } from './pool/memory-guard.js';
export { createTreeMemory, type TreeMemory } from './system/tree-memory.js';
export { scheduleWorkerBatches, type WorkerBatch } from './pool/schedule-worker-batches.js';
export { probeHardwareEncoder, describeHardwareProbe, type HardwareEncoderProbe } from './encode/probe-hardware-encoder.js';
export {
  HARDWARE_H264_ENCODERS,
  hardwareEncoderArgs,
  videoToolboxQuality,
  type HardwareEncoder,
  type HardwareQuality,
} from './encode/hardware-encoders.js';
export { sampleProcessTree, classify, type ProcessClass, type UsageReport } from './measure/sample-process-tree.js';
export {
  withRenderTuning,
  scopedRenderTuning,
  renderTuningSchema,
  DEFAULT_JPEG_QUALITY,
  type RenderTuning,
} from './measure/render-tuning.js';
export {
  savedBenchmarkPath,
  saveBenchmark,
  loadSavedBenchmark,
  savedRenderTuning,
  savedBenchmarkSchema,
  type SavedBenchmark,
} from './measure/saved-benchmark.js';
export { videoPsnr } from './media/compare-videos.js';
export { canvasPixelsFor, type CanvasPixels } from './capture/canvas-capture.js';
export { frameReceiverDoor } from './capture/frame-receiver.js';
export { findCanvasBlockers, describeCanvasBlockers, type CanvasBlocker } from './capture/canvas-blockers.js';
export { chooseCaptureMode, type CaptureModeChoice, type CaptureModeDecision, type CaptureNeeds } from './capture/choose-capture-mode.js';
export { hdrTransfer, HDR_TRANSFER_NAMES, type HdrTransfer } from './encode/hdr-transfer.js';
export { probeHdrMetadata, hdrMetadataFromSideData, type HdrMetadata } from './media/probe-hdr-metadata.js';
export { hdrFilter, hdrVideoArgs, HDR_REFERENCE_WHITE_NITS, type HdrOutput } from './encode/hdr-encoder-args.js';
export { TONE_MAP_TO_SDR } from './encode/tone-map-filter.js';
export { ffmpegHasFilter } from './encode/ffmpeg-filters.js';
export { headroomPeak, hdrLayerGraph, hdrMergeGraph } from './media/hdr-layers.js';
export { extractHdrLayers, type HdrLayers } from './media/extract-hdr-layers.js';
export { mergeHdrLayers, type MergeHdrOptions } from './media/merge-hdr-layers.js';
export { concatSegments, joinPngSequences, countVideoFrames, type ConcatSegmentsOptions } from './encode/concat-segments.js';
export { measureLoudness, parseLoudnessSummary, type Loudness, type LoudnessOptions } from './media/measure-loudness.js';
