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


def _present(name: str) -> str | None:
    """A setting's trimmed value; None when unset. Set but blank (empty, spaces) is refused, never
    read as unset: the rule of renderApiSettings in @seekframe/render-api."""
    raw = os.environ.get(name)
    if raw is None:
        return None
    if not raw.strip():
        danger = _SECRETS.get(name)
        if danger:
            raise RuntimeError(f"{name} is set but blank, {danger[0]}; set it to a real secret (e.g. `openssl rand -hex 32`), or remove the variable to {danger[1]}.")
        raise RuntimeError(f"{name} is set but blank; set a value or remove the variable to use the default.")
    return raw.strip()


# What a blank secret would do, and what removing the variable means instead.
_SECRETS = {
    "RENDER_API_TOKEN": ("which would leave this render API open to anyone", "run without a token"),
    "RENDER_WEBHOOK_SECRET": ("and deliveries signed with an empty key prove nothing", "turn webhooks off"),
}


def _int_env(name: str, default: int | None) -> int | None:
    raw = _present(name)
    if raw is None:
        return default
    if not raw.isdigit() or int(raw) < 1:
        raise RuntimeError(f"{name} must be a whole number of at least 1 (got {raw!r}); fix or unset it.")
    return int(raw)


def _memory_env(name: str) -> int | None:
    """RENDER_MAX_MEMORY_MB: unset means the CLI's own default (per browser of the render)."""
    value = _int_env(name, None)
    if value is not None and value < 256:
        raise RuntimeError(f"{name} must be at least 256 (MB) (got {str(value)!r}): a browser cannot open a page in less; fix or unset it.")
    return value


def _flag_env(name: str) -> bool | None:
    raw = _present(name)
    if raw is None:
        return None
    if raw.lower() in ("true", "false"):
        return raw.lower() == "true"
    raise RuntimeError(f'{name} must be "true" or "false" (got {raw!r}); fix or unset it.')


def settings(overrides: dict[str, Any] | None = None) -> dict[str, Any]:
    """The template's settings, read from the process environment (the `seekframe-render-api`
    Modal secret) each time, as renderApiSettings in @seekframe/render-api: a setting given in
    `overrides` (same keys) wins over its variable; a variable set but unusable (blank, malformed)
    raises, naming it, so the web app refuses to start (create_web_app reads them first)."""
    read = {
        "token": _present("RENDER_API_TOKEN") or "",
        # Unset: a body with `webhook` is refused (400 webhook-secret-missing).
        "webhook_secret": _present("RENDER_WEBHOOK_SECRET") or "",
        # Local tests only: deliveries may reach 127.0.0.0/8 and ::1 (a receiver on this machine).
        "webhook_allow_loopback": bool(_flag_env("RENDER_WEBHOOK_ALLOW_LOOPBACK")),
        "allow_custom_html": bool(_flag_env("ALLOW_CUSTOM_HTML")),
        "max_body_bytes": 2 * 1024 * 1024,
        "max_frames": _int_env("RENDER_MAX_FRAMES", 18000),
        "max_render_seconds": _int_env("RENDER_MAX_SECONDS", 900),
        "max_pixels": 3840 * 2160,
        "max_memory_mb": _memory_env("RENDER_MAX_MEMORY_MB"),
        "max_concurrent": _int_env("RENDER_MAX_CONCURRENT", 2),
        "retention_seconds": _int_env("RENDER_RETENTION_SECONDS", 24 * 3600),
        "composition": _present("PREVIEW_COMPOSITION") or "ui-3d-reveal",
    }
    for key, value in (overrides or {}).items():
        if key not in read:
            raise RuntimeError(f"settings(): unknown setting {key!r}; known: {', '.join(sorted(read))}.")
        if key in ("token", "webhook_secret") and (not isinstance(value, str) or not value.strip()):
            raise RuntimeError(f"settings(): {key} was given but blank; give a real secret or leave it out.")
        read[key] = value.strip() if isinstance(value, str) else value
    return read


def composition_dir(overrides: dict[str, Any] | None = None) -> Path:
    name = settings(overrides)["composition"]
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]*", name):
        raise RuntimeError(f"PREVIEW_COMPOSITION must name a folder under compositions/ (got {name!r})")
    return COMPOSITIONS_DIR / name



def write_json(path: Path, value: Any) -> None:
    """Writes a JSON file whole or not at all (temp file, then rename): readers never see half."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temp = path.with_name(f".{path.name}.{uuid.uuid4().hex}.partial")
    temp.write_text(json.dumps(value))
    temp.replace(path)

