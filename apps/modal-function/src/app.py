"""Seekframe on Modal: the render API contract (docs/contributing/architecture.md, "render-api") as a FastAPI web
function that spawns a render function per request.

- ``web`` (150 s request cap) answers ``POST /api/render`` at once with ``{call_id}`` (or 202
  ``{id, statusUrl}`` with ``Prefer: respond-async``) and spawns ``render``.
- ``render`` (900 s timeout, 4 CPUs, browser GPU off, ``--workers auto``) runs
  ``seekframe render --json``, writes its progress and the MP4 to the volume
  ``seekframe-renders`` and returns where the file is.
- ``GET /api/render/<call_id>`` answers 202 with progress while it runs, then the MP4 (Range);
  ``GET /renders/<name>`` serves a stored MP4 from the volume; ``DELETE`` cancels.

With a ``webhook`` in the body (and ``RENDER_WEBHOOK_SECRET`` set), ``render`` also posts the
render's signed events (webhooks.py); a cancel spawns ``deliver_cancelled`` for the last one.

The routes are in web_routes.py and preview_routes.py; paths and settings in template_settings.py. Deploy:
``modal deploy src/app.py`` (see the template's README).
"""

import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import modal

from template_settings import APP_DIR, MONOREPO_ROOT, VOLUME_NAME, VOLUME_PATH, composition_dir, seekframe_command, write_json
from webhooks import Notifier, completed_data, progress_data, read_attempts, volume_notifier

app = modal.App("seekframe-modal-function")
volume = modal.Volume.from_name(VOLUME_NAME, create_if_missing=True)

# Debian bookworm with Node 20, the headless shell, ffmpeg and fonts; then the project with its
# npm dependencies (the published Seekframe packages) and its build. Deployed from a checkout of
# the Seekframe monorepo instead, the image builds that checkout (contributors: your changes).
_BASE = (
    modal.Image.from_registry("node:20-bookworm-slim", add_python="3.11")
    .apt_install("chromium-headless-shell", "ffmpeg", "fonts-noto-core", "fonts-noto-color-emoji", "ca-certificates")
    .pip_install("fastapi[standard]")
)
# The build also prepares the preview composition's files (the render's rule, run at build time).
_PREPARE = f"PREVIEW_COMPOSITION={shlex.quote(os.environ.get('PREVIEW_COMPOSITION', 'ui-3d-reveal'))}"
_IGNORE = ["**/node_modules", "**/.git", "**/dist", "**/.turbo", "renders", "**/.seekframe", "**/.modal-local", "**/__pycache__"]
if MONOREPO_ROOT is None:
    _install = "npm ci" if (APP_DIR / "package-lock.json").exists() else "npm install"
    image = (
        _BASE.add_local_dir(str(APP_DIR), remote_path="/opt/app", copy=True, ignore=_IGNORE)
        .run_commands(f"cd /opt/app && {_install} --no-audit --no-fund", f"cd /opt/app && {_PREPARE} npm run build")
    )
else:
    image = (
        _BASE.add_local_dir(str(MONOREPO_ROOT), remote_path="/opt/seekframe", copy=True, ignore=_IGNORE)
        .run_commands(
            "cd /opt/seekframe && npm ci --no-audit --no-fund",
            "cd /opt/seekframe && npx turbo run build --filter=seekframe --filter=@seekframe/player --filter=@seekframe/render-api",
            f"cd /opt/seekframe && {_PREPARE} npm run build -w @seekframe/modal-function",
        )
    )
image = (
    image.env({"SEEKFRAME_BROWSER": "/usr/bin/chromium-headless-shell", "PREVIEW_COMPOSITION": os.environ.get("PREVIEW_COMPOSITION", "ui-3d-reveal")})
    # This file's helper modules (mounted at container start, so this step comes last).
    .add_local_python_source("template_settings", "request_paths", "file_responses", "web_routes", "webhook_addresses", "webhook_delivery", "webhooks")
)

# Settings (RENDER_API_TOKEN, ALLOW_CUSTOM_HTML, RENDER_MAX_*): `modal secret create seekframe-render-api ...`.
secrets = [modal.Secret.from_name("seekframe-render-api", required_keys=[])]

CONTENT_TYPES = {"mp4": "video/mp4", "webm": "video/webm", "mov": "video/quicktime", "gif": "image/gif", "png": "image/png"}


def output_extension(request: dict[str, Any]) -> str:
    """A still (``"still"`` in the body) is a PNG; a video has its format's extension (jobOutput in @seekframe/render-api)."""
    return "png" if request.get("still") is not None else request.get("format", "mp4")


def still_flags(still: dict[str, Any]) -> list[str]:
    """``--time 1.5s`` or ``--frame 45`` (stillFlags in @seekframe/render-api)."""
    return ["--time", f"{still['time']}s"] if "time" in still else ["--frame", str(still["frame"])]


def _exit_on_sigterm() -> None:
    """A cancel (SIGTERM) ends the render through its `finally`, so its temp folder goes too."""
    try:
        signal.signal(signal.SIGTERM, lambda _signum, _frame: sys.exit(143))
    except ValueError:  # not the main thread: the platform removes the container anyway
        pass


@app.function(image=image, volumes={str(VOLUME_PATH): volume}, cpu=4, memory=8192, timeout=900, secrets=secrets)
def render(request: dict[str, Any], limits: dict[str, int], webhook: dict[str, Any] | None = None) -> dict[str, Any]:
    """Runs `seekframe render --json` for one request; progress and the file go to the volume.
    With a `webhook` (web_routes.py: url, customData, the checked target, the API's baseUrl) it
    sends the render's signed events too (webhooks.py): the outcome is recorded on the volume
    first, so GET /api/render/:id answers it while the last event is still being delivered."""
    _exit_on_sigterm()
    call_id = modal.current_function_call_id() or f"local-{uuid.uuid4().hex}"
    notifier = volume_notifier(call_id, webhook, volume)
    if notifier is None:
        return _render(call_id, request, limits, None)
    notifier.started()
    try:
        outcome = _render(call_id, request, limits, notifier)
    except Exception as error:  # a crash is the render's failure: the receiver hears it too
        notifier.failed({"code": "render-failed", "message": f"The render function failed: {error}", "stage": "capture", "retryable": True})
        notifier.settle()
        raise
    if outcome["status"] == "completed":
        frames = outcome.pop("frames", None) or (webhook or {}).get("totalFrames")
        notifier.completed(completed_data(call_id, webhook or {}, outcome, frames))
    else:
        notifier.failed(outcome["error"])
    # A Modal container ends when its function returns: the deliveries (with their retries, about
    # 85 s at most) finish first.
    notifier.settle()
    return outcome


def _render(call_id: str, request: dict[str, Any], limits: dict[str, int], notifier: Notifier | None) -> dict[str, Any]:
    fmt = output_extension(request)
    key = f"renders/{call_id}.{fmt}"
    progress_file = VOLUME_PATH / "progress" / f"{call_id}.json"
    work = Path(tempfile.mkdtemp(prefix="seekframe-job-"))
    process: subprocess.Popen[str] | None = None
    try:
        project = composition_dir()
        if request.get("html") is not None:
            project = work / "project"
            project.mkdir()
            (project / "index.html").write_text(request["html"])
        variables_file = work / "variables.json"
        variables_file.write_text(json.dumps(request.get("variables") or {}))
        output = work / f"output.{fmt}"
        # SEEKFRAME_CLI: a command line for the CLI (tests run it from its TypeScript sources).
        command = seekframe_command()
        still = request.get("still")
        # A still is `seekframe still` (the frame's PNG, one browser); a video `seekframe render`.
        start = (
            ["still", str(project), "--json", "--output", str(output), *still_flags(still)]
            if still is not None
            else ["render", str(project), "--json", "--output", str(output), "--format", fmt,
                  "--workers", os.environ.get("SEEKFRAME_WORKERS", "auto"), "--no-browser-gpu"]
        )
        args = [
            *start,
            # A page rendered for a request is untrusted: it reaches only its own project.
            "--network", "sandboxed",
            "--variables-file", str(variables_file), "--strict-variables",
            "--max-frames", str(limits["maxFrames"]), "--max-render-seconds", str(limits["maxRenderSeconds"]),
            "--max-pixels", str(limits["maxPixels"]),
        ]
        if limits.get("maxMemoryMB") is not None:
            args += ["--max-memory", str(limits["maxMemoryMB"])]
        if request.get("quality") and still is None:
            args += ["--quality", request["quality"]]
        if request.get("fps") is not None:
            args += ["--fps", str(request["fps"])]
        if request.get("frames") is not None:
            args += ["--frames", f'{request["frames"]["start"]}-{request["frames"]["end"]}']
        state: dict[str, Any] = {"stage": None, "framesRendered": 0, "totalFrames": None, "progress": 0}
        failure: dict[str, Any] | None = None
        duration_ms: int | None = None
        last_commit = 0.0
        process = subprocess.Popen(command + args, cwd=work, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert process.stdout is not None
        for line in process.stdout:
            try:
                event = json.loads(line)
            except ValueError:
                continue
            kind = event.get("type") if isinstance(event, dict) else None
            if kind == "stage":
                state["stage"] = event["stage"]
            elif kind == "progress":
                state.update(stage=event["stage"], framesRendered=event["framesRendered"], totalFrames=event["totalFrames"], progress=min(1, max(0, event["percent"] / 100)))
            elif kind == "complete":
                duration_ms = event.get("durationMs")
            elif kind == "error":
                failure = event["error"]
            else:
                continue
            if notifier is not None and kind == "progress":
                notifier.progress(progress_data(state))
            # Progress reaches the web function through the volume: commit at most every 2 s.
            if time.monotonic() - last_commit >= 2 or kind in ("complete", "error"):
                write_json(progress_file, state)
                volume.commit()
                last_commit = time.monotonic()
        stderr = process.stderr.read() if process.stderr else ""
        code = process.wait()
        if failure is None and code != 0:
            tail = " ".join(stderr.strip().splitlines()[-3:]) or "no output"
            failure = {"code": "render-failed", "message": f"The Seekframe CLI failed (exit code {code}): {tail}", "stage": "capture", "retryable": True}
        if failure is not None:
            outcome = {"status": "failed", "error": failure}
            if notifier is not None:
                write_json(progress_file, {**state, "outcome": outcome})
                volume.commit()
            return outcome
        target = VOLUME_PATH / key
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(output, target.with_name(f".{target.name}.partial"))
        target.with_name(f".{target.name}.partial").replace(target)
        outcome = {"status": "completed", "key": key, "durationMs": duration_ms, "size": target.stat().st_size, "contentType": CONTENT_TYPES.get(fmt, "application/octet-stream")}
        # The outcome goes with the last progress record: the web function answers it from there
        # while this function still delivers the webhook's last event.
        write_json(progress_file, {**state, "progress": 1, "outcome": outcome})
        volume.commit()
        return {**outcome, "frames": state["totalFrames"]} if notifier is not None else outcome
    finally:
        # A cancel (SIGTERM) lands here while the CLI still runs: stop it first (it closes its
        # browsers and removes its partial output on SIGTERM), so nothing outlives the call.
        if process is not None and process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        shutil.rmtree(work, ignore_errors=True)



@app.function(image=image, volumes={str(VOLUME_PATH): volume}, timeout=180, secrets=secrets)
def deliver_cancelled(render_id: str, webhook: dict[str, Any], error: dict[str, Any]) -> None:
    """A cancelled render's last event, render.failed with code render-cancelled: spawned by
    DELETE /api/render/:id, since the cancelled render function can no longer send it. 180 s:
    room for the five attempts and their backoff."""
    volume.reload()
    notifier = volume_notifier(render_id, webhook, volume)
    if notifier is None or any(a["event"] in ("render.completed", "render.failed") for a in read_attempts(render_id)):
        return
    notifier.failed(error)
    notifier.settle()


def create_web_app(overrides: dict | None = None):
    """The web function's FastAPI app (also `uvicorn app:create_web_app --factory` locally).
    FastAPI is imported here, not at the top, so `modal deploy` runs on a machine without it.
    Settings come from the environment (the `seekframe-render-api` secret); `overrides` (the keys
    of template_settings.settings) win over it field by field."""
    from template_settings import settings
    from web_routes import create_api

    # Read once before serving: a bad setting (a blank RENDER_API_TOKEN, a malformed limit) stops
    # the start with its message instead of failing every request.
    settings(overrides)
    return create_api(render=render, deliver_cancelled=deliver_cancelled, volume=volume, overrides=overrides)


@app.function(image=image, volumes={str(VOLUME_PATH): volume}, timeout=150, secrets=secrets)
@modal.concurrent(max_inputs=50)
@modal.asgi_app()
def web():
    return create_web_app()
