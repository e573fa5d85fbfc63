import type { ErrorCode } from './errors.js';

/**
 * What every error code means to the person who sees it: when it happens and what to do. The
 * docs site's error reference and the agents' guide are generated from this table, and the type
 * below makes a new code in `ERROR_CODES` without an entry here a type error, so the documented
 * list cannot drift from the real one.
 *
 * Kept out of errors.ts on purpose: errors.ts is in every browser bundle (runtime, player), this
 * text is not; nothing in a bundle imports this file, so it is tree-shaken away.
 */
export interface ErrorDoc {
  /** Which part of the manual it belongs to; the reference groups codes by it. */
  group: ErrorGroup;
  /** When the error is raised, one sentence. */
  when: string;
  /** What the user (or the host) should do about it. */
  fix: string;
}

export type ErrorGroup = 'input' | 'page' | 'engine' | 'jobs' | 'tools';

export const ERROR_GROUPS: Record<ErrorGroup, string> = {
  input: 'Input and options',
  page: 'The page',
  engine: 'Browser, capture, media, encode',
  jobs: 'Renders as jobs',
  tools: 'Tools and set-up',
};

export const ERROR_DOCS = {
  // ---- input and options
  'invalid-options': {
    group: 'input',
    when: 'A render setting is wrong: a flag, a body field, a batch row or a frame range. Every problem is listed; `details.field` names the first. CLI exit code 2.',
    fix: 'Correct the named setting; the message gives the accepted values or range.',
  },
  'invalid-argument': {
    group: 'input',
    when: 'A positional argument or flag value of a command is bad. CLI exit code 2.',
    fix: 'Run the command with `--help` and pass a value it accepts.',
  },
  'invalid-json': {
    group: 'input',
    when: 'A request body or a JSON file (variables, batch) is not JSON.',
    fix: 'Send valid JSON: double-quoted keys and strings, no trailing commas.',
  },
  'invalid-body': {
    group: 'input',
    when: 'A request body has an unknown field, a bad value, or is nested deeper than 32 levels (`details.problems` lists each field).',
    fix: 'Send only the documented fields with values in range.',
  },
  'invalid-batch': {
    group: 'input',
    when: 'Rows of a `--batch` file are invalid; `details.problems` lists every bad row with its index and the reason. Nothing renders.',
    fix: 'Fix the listed rows: each row is a flat object of variable ids to strings, numbers or booleans.',
  },
  'invalid-variables': {
    group: 'input',
    when: 'Variable values do not match the declarations: under `--strict-variables`, and always in the render API (`details.problems` lists all of them).',
    fix: 'Pass only declared ids, with values of the declared type, inside the enum options, min/max and maxLength.',
  },
  'invalid-variable-values': {
    group: 'input',
    when: "A sub-composition host's `data-variable-values` is not a JSON object.",
    fix: 'Write a JSON object such as `{"title":"Hi"}`.',
  },
  'variables-too-large': {
    group: 'input',
    when: 'AWS Lambda: more than 256 KiB of variables.',
    fix: 'Pass large data as URLs that the page fetches.',
  },
  'invalid-composition': {
    group: 'input',
    when: 'The HTML is not a composition: no root with `data-width`, `data-height` and `data-duration`, or unusable variable declarations.',
    fix: 'Add the root attributes (see the composition format); the message lists each problem with line:column.',
  },
  'invalid-timing': {
    group: 'input',
    when: 'Clip timing cannot be resolved: a `data-start` naming a clip that does not exist, or a cycle.',
    fix: 'Point `data-start` at an existing id or a number of seconds; break the cycle named in the message.',
  },
  'empty-composition': {
    group: 'input',
    when: 'The root composition lasts 0 seconds: its `data-duration` is 0, or it has none and the timeline it registers in `window.__timelines` is empty or registered under another id.',
    fix: "Give the root a positive `data-duration`, or register the composition's timeline under its `data-composition-id`.",
  },
  'invalid-color-grading': {
    group: 'input',
    when: 'A `data-color-grading` value is invalid: an unknown field, a wrong type, a value out of range (also once `$variable` references are resolved), or a `lut` outside the project.',
    fix: 'Correct the field named in the message (by its path, e.g. `adjust.exposure`).',
  },
  'invalid-lut': {
    group: 'input',
    when: 'A `.cube` LUT file does not parse.',
    fix: 'Fix the line named in the message; only 3D LUTs (`LUT_3D_SIZE`) are supported.',
  },
  'invalid-server-options': {
    group: 'input',
    when: '`seekframe serve` flags or `PRODUCER_*` variables are out of range (the server does not start).',
    fix: 'Use a value in the range the message gives for the named flag or variable.',
  },
  'invalid-runtime-config': {
    group: 'input',
    when: 'The configuration injected into the page for the runtime is invalid.',
    fix: 'A bug in the host that injected it; report it.',
  },
  'invalid-storage-key': {
    group: 'input',
    when: 'A storage key contains `..`, is absolute, or has a symlink on its way.',
    fix: 'Use a relative key of plain names.',
  },
  'entry-not-found': {
    group: 'input',
    when: 'The project folder has no `index.html`, or the named HTML file does not exist.',
    fix: 'Pass a folder that holds `index.html`, or the HTML file itself.',
  },
  'path-outside-root': {
    group: 'input',
    when: "A server request's `projectDir` leaves the server's `--root` (also through a symlink).",
    fix: 'Name a project folder inside the root.',
  },
  'path-outside-project': {
    group: 'input',
    when: 'A sandboxed render asked for a file outside its project: a symlink that leads out, or a sub-composition path outside the project.',
    fix: 'Copy the file into the project folder and reference it by a relative path.',
  },
  'html-too-large': {
    group: 'input',
    when: 'An inline `html` body is over 1 MiB.',
    fix: 'Send a smaller page, or render a project folder instead.',
  },
  'body-too-large': {
    group: 'input',
    when: 'A request body is over 2 MiB (HTTP 413).',
    fix: 'Send a smaller body; pass large assets as URLs.',
  },
  'bad-request': {
    group: 'input',
    when: "A request Node's HTTP parser could not read (HTTP 400), answered before any route ran.",
    fix: 'Send a well-formed HTTP request.',
  },
  'headers-too-large': {
    group: 'input',
    when: 'The request headers are over 16 KiB (HTTP 431).',
    fix: 'Send less in headers; put data in the body.',
  },
  'url-too-long': {
    group: 'input',
    when: 'A request URL is over 8 KiB (HTTP 414).',
    fix: 'Send a shorter URL; put data in the body.',
  },
  'webhook-secret-missing': {
    group: 'input',
    when: 'Render API: the body has a `webhook`, but the deployment has no `RENDER_WEBHOOK_SECRET` to sign deliveries with (HTTP 400).',
    fix: 'Set `RENDER_WEBHOOK_SECRET` on the deployment (e.g. `openssl rand -hex 32`), or leave out `webhook` and poll `GET /api/render/:id`.',
  },
  'webhook-signature-invalid': {
    group: 'input',
    when: '`verifyWebhook()` refused a delivery: the `Seekframe-Signature` header is missing or malformed, its timestamp is outside the tolerance, the signature does not match the body, the receiver passed no secret, or a signed body is not a JSON event (`details.reason` says which).',
    fix: 'Answer the delivery with a 4xx and ignore it. If every delivery fails, check that the receiver uses the raw request body (not re-serialised JSON) and the same secret as `RENDER_WEBHOOK_SECRET` (set and not blank in its environment), and that its clock is right.',
  },
  'custom-html-disabled': {
    group: 'input',
    when: 'Render API: `html` was sent while `ALLOW_CUSTOM_HTML` is not `true` (HTTP 403).',
    fix: 'Leave out `html`, or set `ALLOW_CUSTOM_HTML=true` on the deployment.',
  },
  'idempotency-conflict': {
    group: 'input',
    when: 'Render API: an `Idempotency-Key` was reused with another body (HTTP 409).',
    fix: 'Use a new key for a new request.',
  },
  unauthorized: {
    group: 'input',
    when: 'The bearer token is missing or wrong (HTTP 401).',
    fix: 'Send `Authorization: Bearer <token>` with the configured token.',
  },
  'origin-refused': {
    group: 'input',
    when: "`seekframe preview`'s studio API got a request from another origin or host name, or a change without a JSON body: it answers only the pages it serves, so a web page elsewhere cannot edit files or start renders (HTTP 403).",
    fix: 'Open the preview URL the command printed; a script on the same machine sends JSON to that URL.',
  },
  'not-found': {
    group: 'input',
    when: 'An unknown route (HTTP 404).',
    fix: 'Check the URL against the routes of the server.',
  },
  'method-not-allowed': {
    group: 'input',
    when: 'The preview server only answers GET (HTTP 405).',
    fix: 'Use GET.',
  },
  'limit-exceeded': {
    group: 'input',
    when: 'A render is over a frame, pixel or worker limit; refused before anything starts (`details` carries `{limit, value, max, flag, env}`).',
    fix: 'Render fewer frames or pixels, or raise the limit named in the message.',
  },
  'lint-failed': {
    group: 'input',
    when: 'Lint errors stop the render before a browser starts (`details.findings`).',
    fix: 'Run `seekframe lint` and fix each finding.',
  },
  'target-exists': {
    group: 'input',
    when: '`seekframe init`: a file already has the project name.',
    fix: 'Choose another name or another `--dir`.',
  },
  'target-not-empty': {
    group: 'input',
    when: '`seekframe init`: the project folder exists and is not empty; nothing is written into it.',
    fix: 'Choose another name, or empty the folder.',
  },
  'format-not-distributable': {
    group: 'input',
    when: 'A gif, webm or HDR mp4 was asked to render in pieces (AWS Lambda, segment renders).',
    fix: 'Render mp4 for distributed renders, or render locally.',
  },

  // ---- the page
  'page-load-failed': {
    group: 'page',
    when: 'The page did not load.',
    fix: 'Open the composition with `seekframe preview` to see why; the message names the cause.',
  },
  'page-script-error': {
    group: 'page',
    when: 'An author script threw; the error is quoted.',
    fix: 'Fix the script; the browser console in `seekframe preview` shows the same error.',
  },
  'page-unresponsive': {
    group: 'page',
    when: "The page's main thread stopped answering (a busy loop) at load or at a frame; its browser is killed.",
    fix: 'Remove the endless loop; the message names the frame.',
  },
  'page-dialog': {
    group: 'page',
    when: 'The page opened `alert`, `confirm`, `prompt` or a `beforeunload` dialog; it was dismissed and the render failed.',
    fix: 'Remove the dialog from the composition.',
  },
  'ready-failed': {
    group: 'page',
    when: '`__seekframe.ready` rejected, or a seek failed; the reason says what failed.',
    fix: 'Fix what the message names (an asset, a colour grading value, a sub-composition).',
  },
  'ready-timeout': {
    group: 'page',
    when: 'The page never became ready; the message lists what it still waits for.',
    fix: 'Make the listed items load (fonts, images, media), or remove them.',
  },
  'seek-timeout': {
    group: 'page',
    when: 'One frame did not become ready in time; the message lists what it waits for.',
    fix: 'Make `onSeek` callbacks and media settle; never wait on wall-clock time.',
  },
  'invalid-seek': {
    group: 'page',
    when: '`seek()` got something that is not a number of seconds.',
    fix: 'Pass a number.',
  },
  'asset-not-found': {
    group: 'page',
    when: 'A local file the page references is missing (named, with the page that referenced it).',
    fix: 'Add the file to the project or fix the path.',
  },
  'package-not-installed': {
    group: 'page',
    when: 'The composition loads a script or file from an npm CDN (jsDelivr, unpkg) whose package is not installed in the project (or only in another major version). Seekframe answers npm CDN URLs only from installed packages, so renders are the same offline; it never fetches them. One error per package, whatever number of its files the page loads.',
    fix: 'Run the `npm i <package>@<version>` the message names in the project folder (`seekframe doctor <dir>` lists every such package); the URLs then load from the installed package, with no change to the HTML.',
  },
  'remote-asset-failed': {
    group: 'page',
    when: 'A remote asset could not be fetched (its URL is named); in sandboxed renders also when its host resolves to a refused address.',
    fix: 'Check the URL, or copy the asset into the project.',
  },
  'media-source-refused': {
    group: 'page',
    when: 'A `<video>`/`<audio>` source may not be read: `file:` in a sandboxed render, a private address, a playlist format (HLS, DASH), another scheme.',
    fix: 'Use a file inside the project or a public http(s) URL.',
  },
  'runtime-missing': {
    group: 'page',
    when: 'A page or sub-composition loaded without the Seekframe runtime.',
    fix: 'Serve sub-compositions through a server that injects the runtime (`seekframe preview`, the render server, the templates).',
  },
  'color-grading-unavailable': {
    group: 'page',
    when: 'Colour grading cannot run: the browser has no 2D canvas.',
    fix: 'Use a Chromium with canvas support (any supported Chromium has it).',
  },
  'color-grading-cross-origin': {
    group: 'page',
    when: 'The pixels of a cross-origin image cannot be read for colour grading.',
    fix: 'Serve it with CORS (`crossorigin="anonymous"` and `Access-Control-Allow-Origin`), or copy it into the project.',
  },
  'sub-composition-empty': {
    group: 'page',
    when: 'Under `--strict`: a sub-composition lasts 0 s, has a zero-size box, or its file shows nothing.',
    fix: 'Give the host or the child root a `data-duration` and a size, or fix the child file.',
  },
  'clip-source-unreadable': {
    group: 'page',
    when: 'Under `--strict`: an `<iframe>` whose page the runtime cannot drive (cross-origin, not HTML, nothing loaded).',
    fix: 'Serve the iframe page from the project, or accept a real-time capture without `--strict`.',
  },
  'alpha-flattened': {
    group: 'page',
    when: 'Under `--strict`: the composition has a transparent background (nothing paints behind its content) and the format has no alpha channel (mp4, gif, hls), so its frames are flattened on white.',
    fix: 'Render to mov, webm or png-sequence to keep the transparency, or give `<body>` a background colour.',
  },
  'blank-render': {
    group: 'page',
    when: 'Under `--strict`: every captured frame is the same flat colour.',
    fix: 'Check that the composition draws something (scripts ran, clips are in their time window).',
  },

  // ---- browser, capture, media, encode
  'browser-not-found': {
    group: 'engine',
    when: 'No Chromium was found.',
    fix: 'Install one (`apt-get install chromium-headless-shell chromium` on Debian) or set `SEEKFRAME_BROWSER`; `seekframe doctor` says what was found.',
  },
  'browser-launch-failed': {
    group: 'engine',
    when: 'Chromium did not start, or died while it started (the message says which).',
    fix: 'Run `seekframe doctor`; check `/dev/shm` and free memory.',
  },
  'browser-crashed': {
    group: 'engine',
    when: 'A renderer or browser died; it is replaced up to twice per render, then this error names the frame.',
    fix: 'Usually out of memory: use fewer `--workers`, or a smaller composition.',
  },
  'browser-binary-unavailable': {
    group: 'engine',
    when: 'AWS Lambda: `@sparticuz/chromium` could not provide its binary.',
    fix: 'Check the function package and its `/tmp` space.',
  },
  'beginframe-unsupported': {
    group: 'engine',
    when: 'The engine was asked to launch a browser for beginFrame capture that cannot do it.',
    fix: 'Install `chromium-headless-shell`, or use `--capture-mode auto` or `screenshot`.',
  },
  'capture-mode-unsupported': {
    group: 'engine',
    when: '`--capture-mode beginframe` with a browser that does not support `HeadlessExperimental.beginFrame`.',
    fix: 'Install `chromium-headless-shell` (or chrome-headless-shell), or use `--capture-mode auto` or `screenshot`.',
  },
  'canvas-capture-blocked': {
    group: 'engine',
    when: 'A warning, not an error: the composition has something canvas capture cannot draw (a `<canvas>`, which includes `data-color-grading`, a cross-origin frame, a plugin, a CSS image from another origin, `backdrop-filter`, `backface-visibility: hidden`), so this render captures with beginframe instead. The warning names what and where; the render report says it under `captureMode`.',
    fix: "Nothing to do: the frames are right, only slower to capture. To get canvas capture, draw that content with HTML/CSS/SVG, or serve it from the composition's own origin.",
  },
  'capture-failed': {
    group: 'engine',
    when: 'Chromium produced no image for a frame.',
    fix: 'Retry; if it persists, run `seekframe doctor` and report it with `SEEKFRAME_DEBUG=1` output.',
  },
  'capture-timeout': {
    group: 'engine',
    when: 'Chromium did not deliver a frame in time.',
    fix: 'Retry on a less loaded machine, or with fewer `--workers`.',
  },
  'ffmpeg-not-found': {
    group: 'engine',
    when: 'No ffmpeg or ffprobe was found.',
    fix: 'Install ffmpeg, or set `SEEKFRAME_FFMPEG` / `SEEKFRAME_FFPROBE`.',
  },
  'alpha-lost': {
    group: 'engine',
    when: 'A mov, webm or png-sequence render whose page has transparent pixels produced a file without them: the alpha plane of sampled frames, decoded with ffmpeg, is opaque where the captured page was not. The output is not written.',
    fix: "Check that this ffmpeg's encoder writes alpha (libvpx-vp9 with yuva420p for webm, prores_ks with yuva444p10le for mov); `details.samples` lists each sampled frame's transparent share in the page and in the file. png-sequence keeps alpha with any ffmpeg.",
  },
  'ffmpeg-exited': {
    group: 'engine',
    when: 'ffmpeg died; the message has its last lines and `details.frame` the frame it had reached.',
    fix: 'Read the quoted ffmpeg lines; often a full disk or an unsupported setting.',
  },
  'encoder-closed': {
    group: 'engine',
    when: 'An encoder was used after it finished.',
    fix: 'A bug in the host that drives the encoder; report it.',
  },
  'no-frames': {
    group: 'engine',
    when: 'An encoder was given no frame.',
    fix: 'A bug in the host that drives the encoder; report it.',
  },
  'media-probe-failed': {
    group: 'engine',
    when: 'ffprobe could not read a media source.',
    fix: 'Check that the file is a playable audio/video file.',
  },
  'video-extract-failed': {
    group: 'engine',
    when: 'Frames of a `<video>` could not be extracted.',
    fix: 'Check the source file; the message quotes ffmpeg.',
  },
  'audio-mix-failed': {
    group: 'engine',
    when: 'The soundtrack could not be mixed.',
    fix: 'Check the audio sources; the message quotes ffmpeg.',
  },
  'hdr-unsupported': {
    group: 'engine',
    when: '`--hdr` where it cannot work: a format other than mp4, a hardware encoder, or an ffmpeg without `zscale`.',
    fix: "Render mp4 in software with an ffmpeg that has `zscale` (Debian's has it).",
  },
  'output-write-failed': {
    group: 'engine',
    when: 'The output folder is not writable.',
    fix: "Choose another `--output`, or fix the folder's permissions.",
  },
  'segment-mismatch': {
    group: 'engine',
    when: "Assembled pieces do not hold the plan's frames (one missing, doubled, or from another plan).",
    fix: 'Render the pieces again from the same plan.',
  },
  'segment-missing': {
    group: 'engine',
    when: 'A rendered piece is missing at assembly.',
    fix: 'Render the missing chunk again.',
  },
  'plan-hash-mismatch': {
    group: 'engine',
    when: 'A render plan was edited or damaged after planning.',
    fix: 'Plan again.',
  },
  'version-mismatch': {
    group: 'engine',
    when: "AWS Lambda: a chunk's Chromium or ffmpeg differs from the plan's.",
    fix: 'Deploy every function from one build, then render again.',
  },
  'chunk-timeout': {
    group: 'engine',
    when: 'AWS Lambda: a chunk ran past its time after its retries.',
    fix: 'Use more, shorter chunks (more concurrency), or a simpler composition.',
  },

  // ---- renders as jobs
  'render-failed': {
    group: 'jobs',
    when: 'A render failed for a reason without a more precise code.',
    fix: 'Read the message; retry if `retryable` is true.',
  },
  'render-cancelled': {
    group: 'jobs',
    when: 'The render was cancelled (Ctrl-C, SIGTERM, `DELETE`, a closed stream); no output was written.',
    fix: 'Nothing to fix; start it again if you still want it.',
  },
  'render-timeout': {
    group: 'jobs',
    when: 'The render ran past its wall-time limit (`--max-render-seconds`, `RENDER_MAX_SECONDS`); it was cancelled and wrote no output.',
    fix: 'Raise the limit, or render fewer frames.',
  },
  'memory-limit-exceeded': {
    group: 'jobs',
    when: "The render's browsers held more memory than its bound, or a page's JavaScript heap reached its limit (half the bound); the render was stopped within a second, its browsers killed, and it wrote no output. Default bound: 1536 MB per browser of the render.",
    fix: 'Find what the composition keeps allocating (a growing array, ArrayBuffers, canvases it never releases), render with fewer workers or pixels, or raise `--max-memory` (`PRODUCER_MAX_MEMORY_MB`, `RENDER_MAX_MEMORY_MB`).',
  },
  'too-many-renders': {
    group: 'jobs',
    when: 'The queue is full (HTTP 429).',
    fix: 'Retry after the `Retry-After` seconds.',
  },
  'render-not-found': {
    group: 'jobs',
    when: 'No render has this id (HTTP 404).',
    fix: 'Check the id.',
  },
  'render-expired': {
    group: 'jobs',
    when: 'The render ended longer ago than its retention (HTTP 410).',
    fix: 'Fetch results within the retention time, or raise it.',
  },
  'render-not-running': {
    group: 'jobs',
    when: '`DELETE` of a render that already ended (HTTP 409).',
    fix: 'Nothing to cancel.',
  },
  'output-not-found': {
    group: 'jobs',
    when: "A finished render's file is not there any more (the render server's `/outputs/`).",
    fix: 'Render again; keep the file elsewhere if you need it longer.',
  },
  'output-missing': {
    group: 'jobs',
    when: 'A runner finished but stored no file where the render API expected it.',
    fix: "Check the runner's logs; retry.",
  },
  'shutting-down': {
    group: 'jobs',
    when: 'The server is stopping (HTTP 503).',
    fix: 'Retry against a running server.',
  },
  'batch-fail-fast': {
    group: 'jobs',
    when: 'In a batch manifest: a row that was not started because another row failed under `--batch-fail-fast`.',
    fix: 'Fix the failed row, then run the batch again with `--batch-resume` to render only what is missing.',
  },
  'batch-failed': {
    group: 'jobs',
    when: 'A batch could not run at all.',
    fix: 'Read the message; the manifest lists what ran.',
  },
  'container-unavailable': {
    group: 'jobs',
    when: "Cloudflare: the render's container could not be reached.",
    fix: 'Retry; check the container deployment and its instance limit.',
  },
  'lambda-invoke-failed': {
    group: 'jobs',
    when: 'Invoking an AWS Lambda function failed (credentials, name, region).',
    fix: 'Check `SEEKFRAME_LAMBDA_FUNCTION`, `AWS_REGION` and your AWS credentials.',
  },
  'invalid-job': {
    group: 'jobs',
    when: 'A `seekframe worker` took a job from its queue that is not a Seekframe chunk or assemble job, or whose data does not match the schema (a wrong name, a missing render id, a chunk number that is not a whole number). The job fails at once; the worker keeps running.',
    fix: 'Only Seekframe (`seekframe render --queue`, the queue runner) should add jobs to the queue; give each application its own queue name (`--queue-name`), and check who can write to the Redis server.',
  },
  'queue-unavailable': {
    group: 'jobs',
    when: 'The Redis server of a fleet render could not be reached for longer than the outage limit (`--queue-outage-seconds`, default 120 s), or refused the connection settings (password, TLS).',
    fix: 'Check that Redis runs and is reachable at the `--queue` URL (`REDIS_URL`), the password (`REDIS_PASSWORD` or the URL) and for `rediss://` the CA (`REDIS_TLS_CA_FILE`); then start the render again.',
  },
  'render-lost': {
    group: 'jobs',
    when: "A fleet render's jobs disappeared from the queue while it ran: Redis restarted without persistence (no RDB/AOF), the queue was emptied, or the jobs were removed by hand.",
    fix: 'Run Redis with persistence (`appendonly yes`, as infra/fleet/compose.yaml does) and start the render again.',
  },
  'storage-failed': {
    group: 'jobs',
    when: 'A storage object could not be written or read.',
    fix: 'Retry; check the storage backend (disk space, bucket permissions).',
  },

  // ---- tools and set-up
  'bundle-missing': {
    group: 'tools',
    when: 'A built file of a Seekframe package is missing, or an optional package is not installed (`seekframe lambda` without `@seekframe/aws-lambda`).',
    fix: 'Run the command the message names (a build, or `npm install @seekframe/aws-lambda`).',
  },
  'player-bundle-missing': {
    group: 'tools',
    when: 'Render API: the player bundle is missing.',
    fix: 'Run `npm run build -w @seekframe/player`.',
  },
  'player-load-failed': {
    group: 'tools',
    when: '`<seekframe-player>`: the composition could not be fetched (network error or HTTP status).',
    fix: 'Check `src`; it must be same-origin.',
  },
  'player-failed': {
    group: 'tools',
    when: '`<seekframe-player>`: loading the composition failed for another reason.',
    fix: 'Read the message in the `error` event.',
  },
  'not-ready': {
    group: 'tools',
    when: '`<seekframe-player>`: used before its `ready` event.',
    fix: 'Wait for `ready` before calling `seek()`.',
  },
  'load-superseded': {
    group: 'tools',
    when: '`<seekframe-player>`: a load was replaced by a newer one (a new `src` or variables).',
    fix: 'Nothing to fix: the newer load continues.',
  },
  'invalid-edit': {
    group: 'tools',
    when: "An edit sent to `seekframe preview`'s studio (`POST /__seekframe/studio/edits`) names a file outside the project or not an HTML file, an element that is not at the given line and column, an attribute that is not a timing attribute (`data-start`, `data-duration`, `data-media-start`, `data-track-index`), or a value that attribute cannot take.",
    fix: 'Edit from the timeline of the studio page, which sends only valid timing edits; the message names the file, the element and the attribute.',
  },
  'source-changed': {
    group: 'tools',
    when: 'The studio was asked to write a composition file (a timeline edit, an undo, Save as defaults) that changed on disk since the page read it (HTTP 409). The file is never overwritten then.',
    fix: 'The page reloads the file and shows it as it is now; make the edit again.',
  },
  'preview-failed': {
    group: 'tools',
    when: '`seekframe preview` could not serve a file.',
    fix: 'Read the message; check the file named in it.',
  },
  'port-in-use': {
    group: 'tools',
    when: 'A server could not listen on its port because another process holds it.',
    fix: 'Pass another `--port` (`0` picks a free one).',
  },
  'server-listen-failed': {
    group: 'tools',
    when: 'A server could not listen on its port.',
    fix: 'Pass another `--port` or `--host`.',
  },
  'insecure-host': {
    group: 'tools',
    when: '`seekframe serve` on a non-loopback address without `PRODUCER_AUTH_TOKEN`.',
    fix: 'Set `PRODUCER_AUTH_TOKEN`, or bind 127.0.0.1.',
  },
  'docker-not-found': {
    group: 'tools',
    when: '`--docker`: no `docker` command on `PATH`.',
    fix: 'Install Docker, or render without `--docker`.',
  },
  'docker-unreachable': {
    group: 'tools',
    when: '`--docker`: the engine does not answer (socket missing, connection refused, no answer in 5 s).',
    fix: 'Start Docker (`sudo systemctl start docker` or Docker Desktop); check `DOCKER_HOST`.',
  },
  'docker-image-missing': {
    group: 'tools',
    when: '`--docker`: the engine has no such image.',
    fix: 'Build it with `bash infra/docker/build-image.sh <image>`, or `docker pull <image>`.',
  },
  'docker-run-failed': {
    group: 'tools',
    when: '`--docker`: `docker` could not be started.',
    fix: 'Check the Docker installation.',
  },
  'internal-error': {
    group: 'tools',
    when: 'A bug in Seekframe.',
    fix: 'Report it with the output of the same command run with `SEEKFRAME_DEBUG=1`.',
  },
} as const satisfies Record<ErrorCode, ErrorDoc>;
