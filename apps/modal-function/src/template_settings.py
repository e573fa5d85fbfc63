"""Where the template's files are and its settings, shared by the Modal app (app.py) and its
web routes (web_routes.py). Plain Python: no Modal, no FastAPI."""

import json
import os
import re
import uuid
from pathlib import Path
from typing import Any

APP_DIR = Path(__file__).resolve().parent.parent
REPO_ROOT = APP_DIR.parent.parent

# Where things are inside the Modal image; locally the same names point into this checkout.
IN_MODAL = Path("/opt/seekframe/apps/modal-function/dist").exists()
SEEKFRAME_DIR = Path("/opt/seekframe") if IN_MODAL else REPO_ROOT
DIST_DIR = Path(os.environ.get("SEEKFRAME_TEMPLATE_DIST") or SEEKFRAME_DIR / "apps/modal-function/dist")
COMPOSITIONS_DIR = Path(os.environ.get("COMPOSITIONS_DIR") or SEEKFRAME_DIR / "compositions")
VOLUME_PATH = Path(os.environ.get("SEEKFRAME_VOLUME_PATH") or "/renders")
VOLUME_NAME = "seekframe-renders"


def _int_env(name: str, default: int) -> int:
    raw = (os.environ.get(name) or "").strip()
    if not raw:
        return default
    if not raw.isdigit() or int(raw) < 1:
        raise RuntimeError(f"{name} must be a whole number of at least 1 (got {raw!r}); fix or unset it.")
    return int(raw)


def _memory_env(name: str) -> int | None:
    """RENDER_MAX_MEMORY_MB: unset means the CLI's own default (per browser of the render)."""
    raw = (os.environ.get(name) or "").strip()
    if not raw:
        return None
    value = _int_env(name, 0)
    if value < 256:
        raise RuntimeError(f"{name} must be at least 256 (MB) (got {raw!r}): a browser cannot open a page in less; fix or unset it.")
    return value


def settings() -> dict[str, Any]:
    return {
        "token": (os.environ.get("RENDER_API_TOKEN") or "").strip(),
        "allow_custom_html": (os.environ.get("ALLOW_CUSTOM_HTML") or "").strip() == "true",
        "max_body_bytes": 2 * 1024 * 1024,
        "max_frames": _int_env("RENDER_MAX_FRAMES", 18000),
        "max_render_seconds": _int_env("RENDER_MAX_SECONDS", 900),
        "max_pixels": 3840 * 2160,
        "max_memory_mb": _memory_env("RENDER_MAX_MEMORY_MB"),
        "max_concurrent": _int_env("RENDER_MAX_CONCURRENT", 2),
        "retention_seconds": _int_env("RENDER_RETENTION_SECONDS", 24 * 3600),
        "composition": (os.environ.get("PREVIEW_COMPOSITION") or "ui-3d-reveal").strip(),
    }


def composition_dir() -> Path:
    name = settings()["composition"]
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]*", name):
        raise RuntimeError(f"PREVIEW_COMPOSITION must name a folder under compositions/ (got {name!r})")
    return COMPOSITIONS_DIR / name



def write_json(path: Path, value: Any) -> None:
    """Writes a JSON file whole or not at all (temp file, then rename): readers never see half."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temp = path.with_name(f".{path.name}.{uuid.uuid4().hex}.partial")
    temp.write_text(json.dumps(value))
    temp.replace(path)

