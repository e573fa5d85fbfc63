"""Where the template's files are and its settings, shared by the Modal app (app.py) and its
web routes (web_routes.py). Plain Python: no Modal, no FastAPI."""

import json
import os
import re
import shlex
import uuid
from pathlib import Path
from typing import Any

APP_DIR = Path(__file__).resolve().parent.parent
# The Seekframe monorepo this app sits in (apps/modal-function of a checkout), else None: a
# project of its own, made by `seekframe init --template modal-function`.
MONOREPO_ROOT = APP_DIR.parent.parent if (APP_DIR.parent.parent / "core" / "cli" / "package.json").exists() else None

# Where the project is. In the Modal image: /opt/app (your project, `seekframe init --template
# modal-function`) or /opt/seekframe/apps/modal-function (a checkout of the Seekframe monorepo);
# on this machine: the folder above src/.
IMAGE_PROJECT_DIRS = (Path("/opt/app"), Path("/opt/seekframe/apps/modal-function"))
PROJECT_DIR = next((d for d in IMAGE_PROJECT_DIRS if (d / "dist").is_dir()), APP_DIR)
DIST_DIR = Path(os.environ.get("SEEKFRAME_TEMPLATE_DIST") or PROJECT_DIR / "dist")


def _find_upwards(relative: str) -> Path | None:
    """The first `<folder>/<relative>` from the project folder upwards, as node finds node_modules:
    the project's own, or (inside the Seekframe monorepo) the repository root's."""
    for folder in (PROJECT_DIR, *PROJECT_DIR.parents):
        if (folder / relative).exists():
            return folder / relative
    return None


COMPOSITIONS_DIR = Path(os.environ.get("COMPOSITIONS_DIR") or _find_upwards("compositions") or PROJECT_DIR / "compositions")


def seekframe_command() -> list[str]:
    """The Seekframe CLI: SEEKFRAME_CLI (a command line), else the installed package's bin."""
    configured = shlex.split(os.environ.get("SEEKFRAME_CLI") or "")
    if configured:
        return configured
    cli = _find_upwards("node_modules/seekframe/bin/seekframe.js")
    if cli is None:
        raise RuntimeError(f"The seekframe package is not installed under {PROJECT_DIR}: run npm install there, or set SEEKFRAME_CLI.")
    return ["node", str(cli)]


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


def _secret_env(name: str, danger: str, without: str) -> str:
    """A secret setting, trimmed; unset is "". Set but blank (a stray space, an empty secret) is
    refused rather than read as unset, which would quietly turn a protection off. The same rule
    as renderApiSettingsFromEnv in @seekframe/render-api."""
    raw = os.environ.get(name)
    if raw is not None and not raw.strip():
        raise RuntimeError(f"{name} is set but blank, {danger}; set it to a real secret (e.g. `openssl rand -hex 32`), or remove the variable to {without}.")
    return (raw or "").strip()


def settings() -> dict[str, Any]:
    return {
        "token": _secret_env("RENDER_API_TOKEN", "which would leave this render API open to anyone", "run without a token"),
        # Unset: a body with `webhook` is refused (400 webhook-secret-missing).
        "webhook_secret": _secret_env("RENDER_WEBHOOK_SECRET", "and deliveries signed with an empty key prove nothing", "turn webhooks off"),
        # Local tests only: deliveries may reach 127.0.0.0/8 and ::1 (a receiver on this machine).
        "webhook_allow_loopback": (os.environ.get("RENDER_WEBHOOK_ALLOW_LOOPBACK") or "").strip() == "true",
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

