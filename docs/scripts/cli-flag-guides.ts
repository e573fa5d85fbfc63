/**
 * Which page of the manual explains a command, and where one flag has a section of its own, that
 * section: the CLI reference links each flag to it. Paths are relative to docs/reference/. A flag
 * not listed links to its command's page. docs/test/site.test.ts checks every link and anchor.
 */
export const COMMAND_GUIDES: Record<string, string> = {
  init: '../guide/getting-started.md#install',
  lint: '../guide/troubleshooting.md#lint-rules',
  doctor: '../guide/getting-started.md#is-this-machine-ready',
  check: '../guide/checking.md',
  render: '../guide/output-formats.md',
  serve: '../guide/render-server.md#settings',
  preview: '../guide/studio.md',
  benchmark: '../guide/performance.md#seekframe-benchmark',
  lambda: '../deploy/aws-lambda.md',
  'lambda render': '../deploy/aws-lambda.md#render',
  'lambda progress': '../deploy/aws-lambda.md#progress-and-cost',
};

/** `<command> <flag>` -> its own section, where it has one. */
export const FLAG_GUIDES: Record<string, string> = {
  'render --batch': '../guide/batch-rendering.md',
  'render --batch-resume': '../guide/batch-rendering.md#checks-failures-and-ctrl-c',
  'render --batch-concurrency': '../guide/batch-rendering.md#rows-names-and-workers',
  'render --batch-fail-fast': '../guide/batch-rendering.md#checks-failures-and-ctrl-c',
  'render --variables': '../guide/variables.md#setting-values',
  'render --variables-file': '../guide/variables.md#setting-values',
  'render --strict-variables': '../guide/variables.md#checking-overrides',
  'render --captions': '../guide/captions.md#subtitle-files-captions',
  'render --captions-variable': '../guide/captions.md#subtitle-files-captions',
  'render --docker': '../deploy/docker.md#seekframe-render-docker',
  'render --gpu': '../guide/output-formats.md#hardware-encoding-gpu',
  'render --hdr': '../guide/media.md#hdr',
  'render --sdr': '../guide/media.md#hdr',
  'render --scale': '../guide/output-formats.md#scale',
  'render --hls-segment-seconds': '../guide/output-formats.md#hls',
  'render --video-bitrate': '../guide/output-formats.md#bit-rate-range-video-bitrate-videobitrate',
  'render --workers': '../guide/performance.md#browser-ffmpeg-and-workers',
  'render --capture-mode': '../guide/performance.md',
  'render --report': '../guide/performance.md#where-the-time-went',
  'render --max-frames': '../guide/security.md#limits-per-render',
  'render --max-render-seconds': '../guide/security.md#limits-per-render',
  'render --max-workers': '../guide/security.md#limits-per-render',
  'render --max-pixels': '../guide/security.md#limits-per-render',
  'render --network': '../guide/security.md#what-a-page-in-a-sandboxed-render-can-reach',
  'render --max-memory': '../guide/security.md#a-memory-bound-on-every-render',
  'check --network': '../guide/security.md#what-a-page-in-a-sandboxed-render-can-reach',
  'serve --max-memory': '../guide/security.md#a-memory-bound-on-every-render',
  'check --json': '../guide/checking.md#exit-codes-and-json',
  'check --snapshot': '../guide/checking.md#the-contact-sheet',
  'check --loudness-target': '../guide/checking.md#the-audio-audit',
  'check --format': '../guide/checking.md#the-alpha-check-in-check-and-in-every-render',
};
