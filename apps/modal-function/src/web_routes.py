"""The render API contract (docs/contributing/architecture.md, "render-api") as FastAPI routes for the Modal web
function. `create_api(render, volume)` builds the app; app.py passes its spawnable render
function and the volume. Request checks run through dist/check-request.mjs, the render API's
own TypeScript checks bundled for Node, so this app refuses exactly what every template refuses.
"""

import hashlib
import hmac
import json
import re
import subprocess
import threading
import uuid
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import modal

from file_responses import file_response, inside_file
from preview_routes import add_preview_routes
from request_paths import relative_path_problem
from template_settings import DIST_DIR, VOLUME_PATH, composition_dir, settings, write_json as _write_json
from webhook_addresses import AddressRefused, check_webhook_url, refusal_hint
from webhooks import read_attempts

ANSWER_POLL_SECONDS = 2
CAPACITY_RETRY_SECONDS = 10
# As createRenderApi: the longest path + query and the most header bytes a request may have. uvicorn
# passes far larger requests through, so the app answers 414 / 431 itself.
MAX_URL_BYTES = 8 * 1024
MAX_HEADER_BYTES = 12 * 1024
REQUEST_ID = re.compile(r"^[A-Za-z0-9._:-]{1,128}$")
CONTENT_TYPES = {"mp4": "video/mp4", "webm": "video/webm", "mov": "video/quicktime", "gif": "image/gif"}
# The status of every error code: ERROR_HTTP_STATUS of @seekframe/composition, the one table every
# HTTP face answers with, written to dist/ by scripts/build.mjs (never a copy kept by hand here).
STATUS: dict[str, int] = json.loads((DIST_DIR / "error-http-status.json").read_text(encoding="utf-8"))


def create_api(render: Any, volume: Any, deliver_cancelled: Any = None, overrides: dict[str, Any] | None = None):
    """The FastAPI app: `render` is the Modal function to spawn per request, `volume` the
    `seekframe-renders` volume mounted at VOLUME_PATH, `deliver_cancelled` the function that sends
    a cancelled render's last webhook event (app.py). Settings come from the environment (the
    Modal secret); `overrides` (the keys of settings()) win over it field by field."""
    from fastapi import FastAPI, Request
    from fastapi.responses import JSONResponse, Response
    from starlette.concurrency import run_in_threadpool
    from starlette.exceptions import HTTPException as StarletteHTTPException

    web_app = FastAPI(title="Seekframe render API", docs_url=None, redoc_url=None, openapi_url=None)

    _lock = threading.Lock()
    _composition_cache: dict[str, Any] = {}

    class ApiError(Exception):
        def __init__(self, code: str, message: str, *, stage: str | None = "config", retryable: bool = False, details: dict | None = None, status: int | None = None):
            super().__init__(message)
            self.data: dict[str, Any] = {"code": code, "message": message, **({"stage": stage} if stage else {}), "retryable": retryable, **({"details": details} if details else {})}
            self.status = status or STATUS.get(code, 500)

    def _error_response(error: ApiError) -> JSONResponse:
        response = JSONResponse({"error": error.data}, status_code=error.status)
        if error.data["code"] == "too-many-renders":
            response.headers["retry-after"] = str(CAPACITY_RETRY_SECONDS)
        if error.data["code"] == "unauthorized":
            response.headers["www-authenticate"] = "Bearer"
        if error.data["code"] == "body-too-large":
            response.headers["connection"] = "close"
        return response

    @web_app.exception_handler(ApiError)
    async def _api_error(_request: Request, error: ApiError) -> JSONResponse:
        return _error_response(error)

    @web_app.exception_handler(StarletteHTTPException)
    async def _http_error(_request: Request, error: StarletteHTTPException) -> JSONResponse:
        if error.status_code == 405:
            return _error_response(ApiError("method-not-allowed", "This route does not take that method."))
        return _error_response(ApiError("not-found", "No such route; the render API serves GET /, GET /api/composition, POST /api/render and GET/DELETE /api/render/:id (all described at GET /api/openapi.json)."))

    @web_app.middleware("http")
    async def _request_id_and_auth(request: Request, call_next):
        given = request.headers.get("x-request-id") or ""
        request_id = given if REQUEST_ID.fullmatch(given) else str(uuid.uuid4())
        too_big = None
        if len(request.scope.get("raw_path", b"")) + len(request.scope.get("query_string", b"")) + 1 > MAX_URL_BYTES:
            too_big = ApiError("url-too-long", f"The request URL is longer than {MAX_URL_BYTES} bytes; send parameters in the JSON body.")
        elif sum(len(name) + len(value) + 4 for name, value in request.scope.get("headers", [])) > MAX_HEADER_BYTES:
            too_big = ApiError("headers-too-large", f"The request headers are larger than {MAX_HEADER_BYTES} bytes; send less in headers, or put data in the body.")
        if too_big is not None:
            response = _error_response(too_big)
            response.headers["x-request-id"] = request_id
            return response
        config = settings(overrides)
        path = request.url.path
        # The OpenAPI document describes the API and holds no data: a client reads it before it has a token.
        needs_token = (path.startswith("/api/") and path != "/api/openapi.json") or path.startswith("/renders/")
        if config["token"] and needs_token:
            match = re.fullmatch(r"Bearer\s+(.+)", request.headers.get("authorization", ""), flags=re.IGNORECASE)
            if not match or not hmac.compare_digest(match.group(1).strip().encode(), config["token"].encode()):
                response = _error_response(ApiError("unauthorized", 'This render API needs a token: send the header "Authorization: Bearer <RENDER_API_TOKEN>".'))
                response.headers["x-request-id"] = request_id
                return response
        try:
            response = await call_next(request)
        except ApiError as error:  # raised outside a route (middleware order): same answer
            response = _error_response(error)
        response.headers["x-request-id"] = request_id
        return response

    def _check(payload: dict[str, Any]) -> dict[str, Any]:
        """Runs the render API's request checks (dist/check-request.mjs) on one input."""
        script = DIST_DIR / "check-request.mjs"
        if not script.exists():
            raise ApiError("internal-error", f"{script.name} is missing; run `npm run build -w @seekframe/modal-function`.", retryable=False)
        payload = {**payload, "compositionFile": str(composition_dir(overrides) / "index.html")}
        done = subprocess.run(["node", str(script)], input=json.dumps(payload), capture_output=True, text=True, timeout=60)
        if done.returncode != 0:
            raise ApiError("internal-error", "The request check failed unexpectedly; see the function logs.", retryable=True)
        answer = json.loads(done.stdout)
        if not answer["ok"]:
            error = answer["error"]
            raise ApiError(error["code"], error["message"], stage=error.get("stage"), retryable=error.get("retryable", False), details=error.get("details"), status=answer["status"])
        return answer

    def _composition() -> dict[str, Any]:
        key = settings(overrides)["composition"]
        if key not in _composition_cache:
            _composition_cache[key] = _check({"mode": "composition"})["info"]
        return _composition_cache[key]

    add_preview_routes(web_app, ApiError, lambda: settings(overrides))

    # --- API ------------------------------------------------------------------------------------------

    @web_app.get("/api/openapi.json")
    def openapi_document() -> Response:
        # Made at build time (scripts/build.mjs) from the render API's zod schemas, as every template serves it.
        file = DIST_DIR / "openapi.json"
        if not file.exists():
            raise ApiError("internal-error", "openapi.json is missing; run `npm run build -w @seekframe/modal-function`.")
        return Response(file.read_bytes(), media_type="application/json")

    @web_app.get("/api/composition")
    def get_composition() -> dict[str, Any]:
        return _composition()

    def _now() -> datetime:
        return datetime.now(timezone.utc)

    def _job_file(job_id: str) -> Path:
        if not re.fullmatch(r"[A-Za-z0-9_-]{1,128}", job_id):
            raise ApiError("render-not-found", f'No render with id "{job_id}"; POST /api/render answers the id to poll.')
        return VOLUME_PATH / "jobs" / f"{job_id}.json"

    def _read_job(job_id: str) -> dict[str, Any]:
        file = _job_file(job_id)
        if not file.exists():
            volume.reload()  # written by another container a moment ago?
        if not file.exists():
            raise ApiError("render-not-found", f'No render with id "{job_id}"; POST /api/render answers the id to poll.')
        job = json.loads(file.read_text())
        if datetime.fromisoformat(job["expiresAt"]) <= _now():
            _drop_output(job)
            raise ApiError("render-expired", f"Render {job_id} expired at {job['expiresAt']}; its output is no longer kept. Render again.", details={"expiresAt": job["expiresAt"]})
        return job

    def _drop_output(job: dict[str, Any]) -> None:
        """Deletes an expired job's file and progress record (the volume has no lifecycle rule);
        the job record stays, so its status keeps answering 410."""
        request = job.get("request") or {}
        fmt = "png" if request.get("still") is not None else request.get("format", "mp4")
        removed = False
        for leftover in (VOLUME_PATH / "renders" / f"{job['id']}.{fmt}", VOLUME_PATH / "progress" / f"{job['id']}.json"):
            if leftover.is_file():
                leftover.unlink(missing_ok=True)
                removed = True
        if removed:
            volume.commit()

    def _result(job_id: str) -> dict[str, Any] | None:
        """The render function's return value; None while it runs (get(timeout=0) -> TimeoutError)."""
        try:
            return modal.FunctionCall.from_id(job_id).get(timeout=0)
        except TimeoutError:
            # Finished but still delivering its webhook's last event: the outcome it recorded first.
            return _progress(job_id).get("outcome")
        except Exception as error:  # the function crashed or was cancelled: the call's own failure
            return {"status": "failed", "error": {"code": "render-failed", "message": f"The render function failed: {error}", "stage": "capture", "retryable": True}}

    def _progress(job_id: str) -> dict[str, Any]:
        progress_file = VOLUME_PATH / "progress" / f"{job_id}.json"
        return json.loads(progress_file.read_text()) if progress_file.exists() else {}

    def _webhook_status(job: dict[str, Any]) -> dict[str, Any]:
        """`webhook: {url, attempts}` in a status, as progressOf in @seekframe/render-api."""
        webhook = (job.get("request") or {}).get("webhook")
        return {"webhook": {"url": webhook["url"], "attempts": read_attempts(job["id"])}} if webhook else {}

    def _active_jobs() -> int:
        count = 0
        jobs_dir = VOLUME_PATH / "jobs"
        if not jobs_dir.exists():
            return 0
        for file in jobs_dir.glob("*.json"):
            job = json.loads(file.read_text())
            if datetime.fromisoformat(job["expiresAt"]) <= _now():
                # Swept on every new render: files past retention leave the volume even if
                # nobody asks for them again (a render that landed after its job expired too).
                _drop_output(job)
                continue
            if job.get("status") != "running":
                continue
            if _result(job["id"]) is None:
                count += 1
            else:
                # Finished: never ask Modal about this call again.
                _write_json(file, {**job, "status": "finished"})
        return count

    def _answer_started(request: Request, job_id: str) -> Response:
        status_url = f"/api/render/{job_id}"
        if re.search(r"\brespond-async\b", request.headers.get("prefer", ""), flags=re.IGNORECASE):
            return JSONResponse({"id": job_id, "statusUrl": status_url}, status_code=202, headers={"location": status_url, "preference-applied": "respond-async"})
        return JSONResponse({"call_id": job_id}, headers={"location": status_url})

    @web_app.post("/api/render")
    async def start_render(request: Request) -> Response:
        config = settings(overrides)
        declared = request.headers.get("content-length")
        if declared and declared.isdigit() and int(declared) > config["max_body_bytes"]:
            raise ApiError("body-too-large", f"The request body is larger than this deployment's limit of {config['max_body_bytes']} bytes; send fewer or shorter variables.", details={"limit": config["max_body_bytes"]})
        body = b""
        async for chunk in request.stream():
            body += chunk
            if len(body) > config["max_body_bytes"]:
                raise ApiError("body-too-large", f"The request body is larger than this deployment's limit of {config['max_body_bytes']} bytes; send fewer or shorter variables.", details={"limit": config["max_body_bytes"]})
        checked = _check({
            "mode": "render",
            "body": body.decode("utf-8", errors="replace"),
            "allowCustomHtml": config["allow_custom_html"],
            "limits": {"maxFrames": config["max_frames"], "maxPixels": config["max_pixels"]},
            # Without a secret a webhook is refused (webhook-secret-missing); with one, its shape is checked.
            **({"webhooks": {}} if config["webhook_secret"] else {}),
        })
        webhook = None
        if checked["request"].get("webhook"):
            await run_in_threadpool(_check_webhook_address, checked["request"]["webhook"]["url"], checked["webhookTarget"], config["webhook_allow_loopback"])
            # What the render function needs to deliver: where (as the check parsed it), the
            # caller's customData, and the address this API was reached at (render.completed's url).
            webhook = {**checked["request"]["webhook"], "target": checked["webhookTarget"], "baseUrl": f"{request.url.scheme}://{request.url.netloc}", "totalFrames": checked["totalFrames"]}
        key = (request.headers.get("idempotency-key") or "").strip()
        if len(key) > 255:
            raise ApiError("invalid-body", "Idempotency-Key is longer than 255 characters; use a UUID.")
        key_file = VOLUME_PATH / "idempotency" / f"{hashlib.sha256(key.encode()).hexdigest()}.json" if key else None
        # One container answers many requests at once: check-then-spawn is one step here.
        with _lock:
            volume.reload()
            if key_file is not None and key_file.exists():
                existing = json.loads(key_file.read_text())
                if existing["bodyHash"] != checked["bodyHash"]:
                    raise ApiError("idempotency-conflict", f'Idempotency-Key "{key}" was already used with a different body (render {existing["id"]}); use a new key for a different render.', details={"id": existing["id"]})
                return _answer_started(request, existing["id"])
            if _active_jobs() >= config["max_concurrent"]:
                raise ApiError("too-many-renders", f"This deployment is rendering {config['max_concurrent']} video(s) already; try again in {CAPACITY_RETRY_SECONDS} s.", retryable=True, details={"maxConcurrentRenders": config["max_concurrent"]})
            limits = {"maxFrames": config["max_frames"], "maxRenderSeconds": config["max_render_seconds"], "maxPixels": config["max_pixels"], "maxMemoryMB": config["max_memory_mb"]}
            call = render.spawn(checked["request"], limits, webhook) if webhook else render.spawn(checked["request"], limits)
            created = _now()
            job = {
                "id": call.object_id,
                "status": "running",
                # Not the html (only the render function needs it, passed to spawn above): a job
                # file kept for the retention period holds what a status or a retry needs.
                "request": {name: value for name, value in checked["request"].items() if name != "html"},
                "totalFrames": checked["totalFrames"],
                "createdAt": created.isoformat(),
                "expiresAt": (created + timedelta(seconds=config["retention_seconds"])).isoformat(),
                **({"idempotencyKey": key, "bodyHash": checked["bodyHash"]} if key else {}),
                **({"webhook": webhook} if webhook else {}),
            }
            _write_json(_job_file(call.object_id), job)
            if key_file is not None:
                _write_json(key_file, {"id": call.object_id, "bodyHash": checked["bodyHash"]})
            volume.commit()
        return _answer_started(request, call.object_id)

    def _check_webhook_address(url: str, target: dict[str, Any], allow_loopback: bool) -> None:
        """The address rule of checkWebhookRequest: resolved now, refused when loopback or private."""
        try:
            check_webhook_url(target, allow_loopback)
        except AddressRefused as why:
            raise ApiError("invalid-options", f"webhook.url {url[:200]} cannot receive deliveries: {why}. {refusal_hint(why.kind)}", details={"field": "webhook.url"}) from None

    def _wants_json(request: Request) -> bool:
        accept = request.headers.get("accept", "")
        first = accept.split(",")[0]
        return "application/json" in accept.lower() and "video/" not in first and "*/*" not in first

    def _ended(request: Request, job: dict[str, Any], error: ApiError, status: str) -> Response:
        """A failed or cancelled render: the error alone, or for a JSON client the error under
        its HTTP status with the status and the webhook's attempts (as render-routes.ts)."""
        if not _wants_json(request):
            raise error
        progress = _progress(job["id"])
        body = {
            "error": error.data, "id": job["id"], "status": status, "stage": progress.get("stage"),
            "progress": progress.get("progress", 0), "framesRendered": progress.get("framesRendered", 0),
            "totalFrames": progress.get("totalFrames") or job.get("totalFrames"),
            **_webhook_status(job),
        }
        return JSONResponse(body, status_code=error.status, headers={"cache-control": "no-store"})

    @web_app.get("/api/render/{job_id}")
    def render_status(job_id: str, request: Request) -> Response:
        job = _read_job(job_id)
        if job.get("status") == "cancelled":
            return _ended(request, job, ApiError("render-cancelled", f"Render {job_id} was cancelled; start a new one with POST /api/render.", stage="capture"), "cancelled")
        volume.reload()
        result = _result(job_id)
        if result is None:
            progress = _progress(job_id)
            body = {
                "id": job_id,
                "status": "running" if progress else "queued",
                "stage": progress.get("stage"),
                "progress": progress.get("progress", 0),
                "framesRendered": progress.get("framesRendered", 0),
                "totalFrames": progress.get("totalFrames") or job.get("totalFrames"),
                **_webhook_status(job),
            }
            return JSONResponse(body, status_code=202, headers={"retry-after": str(ANSWER_POLL_SECONDS), "cache-control": "no-store"})
        if result["status"] == "failed":
            error = result["error"]
            return _ended(request, job, ApiError(error["code"], error["message"], stage=error.get("stage"), retryable=error.get("retryable", False), details=error.get("details")), "failed")
        if _wants_json(request):
            url = f"/api/render/{job_id}"
            return JSONResponse({
                "id": job_id, "status": "completed", "stage": "finish", "progress": 1,
                "framesRendered": job.get("totalFrames"), "totalFrames": job.get("totalFrames"),
                **_webhook_status(job),
                "result": {"url": url, "key": result["key"], "durationMs": result.get("durationMs"), "size": result.get("size"), "contentType": result.get("contentType")},
            })
        volume.reload()
        file = VOLUME_PATH / result["key"]
        if not file.exists():
            raise ApiError("render-expired", f"The stored file {result['key']} is gone (it expired or was removed); render again.", stage="output")
        return file_response(request, file, file.name)

    @web_app.delete("/api/render/{job_id}")
    def cancel_render(job_id: str) -> Response:
        job = _read_job(job_id)
        if job.get("status") == "cancelled" or _result(job_id) is not None:
            status = "cancelled" if job.get("status") == "cancelled" else "finished"
            raise ApiError("render-not-running", f"Render {job_id} is already {status}; only a queued or running render can be cancelled.", details={"status": status})
        # Recorded first: a status request during the cancel must not read the killed call as a failure.
        _write_json(_job_file(job_id), {**job, "status": "cancelled"})
        volume.commit()
        modal.FunctionCall.from_id(job_id).cancel()
        if job.get("webhook") and deliver_cancelled is not None:
            # The cancelled render function sends nothing more: its last event goes from here.
            error = {"code": "render-cancelled", "message": f"Render {job_id} was cancelled by a DELETE request.", "stage": "capture", "retryable": False}
            deliver_cancelled.spawn(job_id, job["webhook"], error)
        return JSONResponse({"id": job_id, "status": "cancelled"}, status_code=202)

    @web_app.api_route("/renders/{name}", methods=["GET", "HEAD"])
    def stored_render(name: str, request: Request) -> Response:
        # One plain name under renders/, as storedRenderName in @seekframe/composition.
        if relative_path_problem(name) or "/" in name or name.startswith("."):
            raise ApiError("not-found", f"No stored render named {name}; it may have expired.")
        file = inside_file(VOLUME_PATH / "renders", name)
        if file is None:
            volume.reload()
            file = inside_file(VOLUME_PATH / "renders", name)
        if file is None:
            raise ApiError("not-found", f"No stored render named {name}; it may have expired.")
        return file_response(request, file, name)

    return web_app
