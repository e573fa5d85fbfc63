"""File answers of the web routes: content types, Range (the rules of @seekframe/render-api's
parseRange) and streaming. FastAPI is imported when a response is made, as in web_routes.py."""

import re
from pathlib import Path
from typing import Any

from request_paths import inside

TYPES = {
    "html": "text/html; charset=utf-8", "js": "text/javascript; charset=utf-8", "mjs": "text/javascript; charset=utf-8",
    "css": "text/css; charset=utf-8", "json": "application/json", "svg": "image/svg+xml", "png": "image/png",
    "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif", "webp": "image/webp", "woff2": "font/woff2",
    "woff": "font/woff", "ttf": "font/ttf", "mp4": "video/mp4", "webm": "video/webm", "mov": "video/quicktime",
    "mp3": "audio/mpeg", "wav": "audio/wav", "m4a": "audio/mp4", "ogg": "audio/ogg",
}


def type_of(path: str) -> str:
    return TYPES.get(path.rsplit(".", 1)[-1].lower() if "." in path else "", "application/octet-stream")


def inside_file(root: Path, relative: str) -> Path | None:
    file = inside(root, relative)
    return file if file is not None and file.is_file() else None


def parse_range(header: str | None, size: int) -> tuple[int, int] | str | None:
    """The same rules as @seekframe/render-api's parseRange."""
    if not header:
        return None
    match = re.fullmatch(r"\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*", header, flags=re.IGNORECASE)
    if not match:
        return None
    first, last = match.groups()
    if first == "" and last == "":
        return None
    if first == "":
        suffix = int(last)
        if suffix == 0 or size == 0:
            return "unsatisfiable"
        return max(0, size - suffix), size - 1
    start = int(first)
    if start >= size:
        return "unsatisfiable"
    end = size - 1 if last == "" else min(int(last), size - 1)
    return "unsatisfiable" if end < start else (start, end)


def file_response(request: Any, file: Path, download_name: str | None, *, content_type: str | None = None, extra: dict[str, str] | None = None) -> Any:
    """The file (or the Range asked for) streamed, with its type and caching headers."""
    from fastapi.responses import Response, StreamingResponse

    size = file.stat().st_size
    headers = {
        "accept-ranges": "bytes",
        "content-type": content_type or type_of(file.name),
        **({"content-disposition": f'inline; filename="{download_name}"', "cache-control": "private, max-age=3600"} if download_name else {"cache-control": "no-cache"}),
        **(extra or {}),
    }
    wanted = parse_range(request.headers.get("range"), size)
    if wanted == "unsatisfiable":
        return Response(status_code=416, headers={**headers, "content-range": f"bytes */{size}"})
    start, end = wanted if isinstance(wanted, tuple) else (0, size - 1)

    def chunks():
        with file.open("rb") as handle:
            handle.seek(start)
            left = end - start + 1
            while left > 0:
                block = handle.read(min(65536, left))
                if not block:
                    break
                left -= len(block)
                yield block

    headers["content-length"] = str(end - start + 1 if size else 0)
    if isinstance(wanted, tuple):
        headers["content-range"] = f"bytes {start}-{end}/{size}"
        return StreamingResponse(chunks(), status_code=206, headers=headers)
    return StreamingResponse(chunks(), status_code=200, headers=headers)
