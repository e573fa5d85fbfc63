"""The preview routes of the web function: the preview page and its scripts, and the composition's
files for the player as `npm run build` prepared them (dist/preview/compositions/<name>/, with
@seekframe/producer's exportCompositionFiles: runtime in every page, npm libraries and
@fontsource faces from installed packages), served as they are. The same lookups as
@seekframe/producer's createExportedFiles. `add_preview_routes(web_app, api_error)` adds them;
web_routes.py passes its error class, so a refusal answers like every other route."""

import json
import re
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from file_responses import file_response, inside_file, type_of
from request_paths import relative_path_problem
from template_settings import DIST_DIR, settings

PREVIEW_CSP = "frame-ancestors 'self'; object-src 'none'"


def add_preview_routes(web_app: Any, ApiError: type, config: Any = settings) -> None:
    """`config` answers the settings (web_routes passes its own, with its overrides)."""
    from fastapi import Request
    from fastapi.responses import Response

    def _preview_file(name: str) -> Response:
        file = DIST_DIR / "preview" / name
        if not file.exists():
            raise ApiError("not-found", f"The preview asset {name} is missing; run `npm run build -w @seekframe/modal-function`.")
        return Response(file.read_bytes(), media_type=type_of(name), headers={"content-security-policy": PREVIEW_CSP, "cache-control": "no-cache"})

    @web_app.get("/")
    def preview_page() -> Response:
        return _preview_file("index.html")

    @web_app.get("/preview/{asset}")
    def preview_asset(asset: str) -> Response:
        if asset not in ("app.js", "seekframe-player.js"):
            raise ApiError("not-found", f"No preview file {asset}.")
        return _preview_file(asset)

    # The composition's files for the player: what `npm run build -w @seekframe/modal-function`
    # prepared with the render's own rule (@seekframe/producer's exportCompositionFiles: runtime in
    # every page, npm libraries and @fontsource faces from installed packages), served as they are.
    # The same lookups as @seekframe/producer's createExportedFiles.
    _prepared_cache: dict[str, tuple[float, dict[str, Any]]] = {}

    def _prepared() -> tuple[Path, dict[str, Any]]:
        name = config()["composition"]
        folder = DIST_DIR / "preview" / "compositions" / name
        manifest_file = folder / "manifest.json"
        if not manifest_file.exists():
            raise ApiError("bundle-missing", f"The preview files of the composition {name} were not prepared; run `PREVIEW_COMPOSITION={name} npm run build -w @seekframe/modal-function`.", stage="serve")
        stamp = manifest_file.stat().st_mtime
        cached = _prepared_cache.get(name)
        if not cached or cached[0] != stamp:
            cached = (stamp, json.loads(manifest_file.read_text()))
            _prepared_cache[name] = cached  # one dict assignment: safe across the request threads
        return folder, cached[1]

    def _prepared_file(request: Request, folder: Path, stored: dict[str, str]) -> Response:
        file = inside_file(folder, stored["file"])
        if file is None:
            raise ApiError("bundle-missing", "A prepared preview file is missing; run `npm run build -w @seekframe/modal-function` again.", stage="serve")
        return file_response(request, file, None, content_type=stored["type"], extra={"content-security-policy": PREVIEW_CSP})

    @web_app.get("/preview/composition/{path:path}")
    def composition_file(path: str, request: Request) -> Response:
        folder, manifest = _prepared()
        # The raw path: Starlette already decoded it; the manifest's keys are the decoded paths.
        raw = request.scope.get("raw_path", b"").decode("latin-1").split("/preview/composition/", 1)[-1].split("?", 1)[0]
        key = unquote(raw)
        # Plain relative paths only, as every template's route (relativePathProblem).
        if relative_path_problem(key) is not None:
            raise ApiError("not-found", f"No composition file {path}; paths are relative to the composition folder, without '..'.")
        if key == "__seekframe/remote":
            url = request.query_params.get("url") or ""
            stored = manifest["remote"].get(url)
            if stored:
                return _prepared_file(request, folder, stored)
            # Not installed when the preview was built: a page's own request for it goes to where it
            # is (the viewer's browser loads it); a link someone follows is not sent elsewhere, and
            # only a URL the pages name (the build's `redirect` list) is: never one a request made up.
            dest = request.headers.get("sec-fetch-dest")
            named = url in manifest.get("redirect", [])
            if named and re.match(r"https?://", url) and dest and dest not in ("document", "iframe", "frame", "embed", "object"):
                return Response(status_code=307, headers={"location": url, "cache-control": "no-store"})
            raise ApiError("not-found", f"{url or 'That URL'} has no local copy in this preview, and the preview fetches nothing itself.")
        stored = manifest["files"].get(key)
        if stored is None:
            raise ApiError("not-found", f"No composition file {path}; paths are relative to the composition folder, without '..'.")
        return _prepared_file(request, folder, stored)
