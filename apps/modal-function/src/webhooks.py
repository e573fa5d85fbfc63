"""A render's webhook on Modal: what its life cycle tells the receiver (render.started,
render.progress, render.completed, render.failed), in order, in the background, each attempt
written to the volume (`webhooks/<call id>.json`) for GET /api/render/:id. The rules of
createWebhookNotifier (@seekframe/producer/webhooks) for the Python app.

Who sends what: the render function sends every event of its render (it sees them first and
outlives the web request); a cancel (DELETE) spawns `deliver_cancelled`, which sends the last
event, render.failed with code render-cancelled. Plain Python: no Modal, no FastAPI."""

import json
import queue
import threading
import time
from pathlib import Path
from typing import Any, Callable

from template_settings import DIST_DIR, VOLUME_PATH, settings, write_json
from webhook_delivery import RETRY_DELAYS_SECONDS, build_event, deliver

# Least time between two render.progress deliveries of one render (DEFAULT_PROGRESS_INTERVAL_MS).
PROGRESS_INTERVAL_SECONDS = 5.0
FINAL_EVENTS = ("render.completed", "render.failed")


def attempts_file(render_id: str) -> Path:
    return VOLUME_PATH / "webhooks" / f"{render_id}.json"


def read_attempts(render_id: str) -> list[dict[str, Any]]:
    file = attempts_file(render_id)
    try:
        return json.loads(file.read_text()) if file.exists() else []
    except ValueError:
        return []


_fixes: dict[str, str] | None = None


def failed_data(error: dict[str, Any]) -> dict[str, Any]:
    """render.failed's data: the code, the message and the documented fix for the code (the
    build writes ERROR_DOCS' fixes to dist/error-fixes.json), as failedData does."""
    global _fixes
    if _fixes is None:
        file = DIST_DIR / "error-fixes.json"
        _fixes = json.loads(file.read_text()) if file.exists() else {}
    return {"error": {"code": error["code"], "message": error["message"], "fix": _fixes.get(error["code"]), "stage": error.get("stage"), "retryable": bool(error.get("retryable", False))}}


class Notifier:
    """One render's webhook. Events go out one after another in the order they happened from one
    thread; render.progress at most once per interval and with a single attempt (the next one
    supersedes it), the others with retries; nothing after the final event. Every call returns at
    once; `settle()` waits until every event so far is delivered or given up."""

    def __init__(self, render_id: str, webhook: dict[str, Any], *, secret: str, allow_loopback: bool, record: Callable[[list[dict[str, Any]]], None],
                 previous: list[dict[str, Any]] | None = None, retry_delays: tuple[float, ...] = RETRY_DELAYS_SECONDS, progress_interval: float = PROGRESS_INTERVAL_SECONDS):
        self._render_id = render_id
        self._webhook = webhook
        self._secret = secret
        self._allow_loopback = allow_loopback
        self._record = record
        self._retry_delays = retry_delays
        self._progress_interval = progress_interval
        self._attempts = list(previous or [])
        self._started = any(a["event"] == "render.started" for a in self._attempts)
        self._finished = any(a["event"] in FINAL_EVENTS for a in self._attempts)
        self._last_progress = float("-inf")
        self._queue: queue.Queue = queue.Queue()
        # A daemon: a cancelled render's process ends without waiting for its deliveries.
        threading.Thread(target=self._work, daemon=True, name=f"webhook-{render_id}").start()

    def _work(self) -> None:
        while True:
            event, delays = self._queue.get()
            try:
                deliver(self._webhook["target"], event, secret=self._secret, allow_loopback=self._allow_loopback, retry_delays=delays, on_attempt=self._on_attempt)
            finally:
                self._queue.task_done()

    def _on_attempt(self, attempt: dict[str, Any]) -> None:
        self._attempts.append(attempt)
        try:
            self._record(list(self._attempts))
        except Exception:
            pass  # recording is best effort; the delivery goes on

    def _enqueue(self, event_type: str, data: dict[str, Any]) -> None:
        event = build_event(self._render_id, event_type, data, self._webhook)
        self._queue.put((event, () if event_type == "render.progress" else self._retry_delays))

    def _ensure_started(self) -> None:
        if not self._started:
            self._started = True
            self._enqueue("render.started", {})

    def started(self) -> None:
        if not self._finished:
            self._ensure_started()

    def progress(self, data: dict[str, Any]) -> None:
        if self._finished:
            return
        self._ensure_started()
        if time.monotonic() - self._last_progress < self._progress_interval:
            return
        self._last_progress = time.monotonic()
        self._enqueue("render.progress", data)

    def completed(self, data: dict[str, Any]) -> None:
        if self._finished:
            return
        self._ensure_started()
        self._finished = True
        self._enqueue("render.completed", data)

    def failed(self, error: dict[str, Any]) -> None:
        if self._finished:
            return
        self._finished = True
        self._enqueue("render.failed", failed_data(error))

    def settle(self) -> None:
        self._queue.join()


def volume_notifier(render_id: str, webhook: dict[str, Any] | None, volume: Any) -> Notifier | None:
    """The render's notifier, recording into the volume; None without a webhook or a secret (a
    deployment whose secret was removed after the POST sends nothing rather than unsigned posts)."""
    config = settings()
    if not webhook or not config["webhook_secret"]:
        return None
    lock = threading.Lock()

    def record(attempts: list[dict[str, Any]]) -> None:
        with lock:
            write_json(attempts_file(render_id), attempts)
            volume.commit()

    return Notifier(render_id, webhook, secret=config["webhook_secret"], allow_loopback=config["webhook_allow_loopback"], record=record, previous=read_attempts(render_id))


def progress_data(state: dict[str, Any]) -> dict[str, Any]:
    return {"progress": state["progress"], "stage": state["stage"], "framesRendered": state["framesRendered"], "totalFrames": state["totalFrames"]}


def completed_data(render_id: str, webhook: dict[str, Any], result: dict[str, Any], frames: int | None) -> dict[str, Any]:
    """render.completed's data: the file at this deployment's /api/render/<id>, absolute with the
    address the render was posted to."""
    return {"url": f"{webhook['baseUrl'].rstrip('/')}/api/render/{render_id}", "size": result.get("size"), "durationMs": result.get("durationMs"), "frames": frames}
