"""A local stand-in for the parts of Modal's Python SDK that src/app.py uses.

Modal cannot be reached from a laptop test, so this module takes its place on PYTHONPATH:
- ``App.function(...)`` returns a ``Function`` whose ``spawn(*args)`` starts a real subprocess
  (``python -m modal._run_call``) that imports the app module and runs the function body, the
  way a Modal container would; ``FunctionCall.object_id`` is the call id.
- ``FunctionCall.from_id(id).get(timeout=0)`` raises ``TimeoutError`` while that process runs
  (as Modal does), returns the function's return value once it finished, and re-raises its
  exception as ``modal.exception.RemoteError`` when it failed. ``cancel()`` ends the process group.
- ``Volume`` is a folder: ``commit()``/``reload()`` do nothing because every process sees the
  same files at once.
- ``Image``, ``Secret``, ``concurrent``, ``asgi_app`` accept the same arguments and do nothing.
State lives in MODAL_LOCAL_STATE_DIR (a temp folder per test run).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any, Callable

from . import exception

__all__ = ["App", "Function", "FunctionCall", "Image", "Volume", "Secret", "asgi_app", "concurrent", "current_function_call_id", "exception", "is_local"]


def _state_dir() -> Path:
    path = Path(os.environ.get("MODAL_LOCAL_STATE_DIR") or Path.cwd() / ".modal-local")
    (path / "calls").mkdir(parents=True, exist_ok=True)
    return path


def is_local() -> bool:
    return True


def current_function_call_id() -> str | None:
    return os.environ.get("MODAL_LOCAL_CALL_ID")


class Image:
    """Build steps are recorded and ignored: locally the machine itself is the image."""

    def __init__(self, steps: list[tuple[str, tuple, dict]] | None = None):
        self.steps = steps or []

    @classmethod
    def debian_slim(cls, *args: Any, **kwargs: Any) -> "Image":
        return cls([("debian_slim", args, kwargs)])

    @classmethod
    def from_registry(cls, *args: Any, **kwargs: Any) -> "Image":
        return cls([("from_registry", args, kwargs)])

    def _step(self, name: str, *args: Any, **kwargs: Any) -> "Image":
        return Image(self.steps + [(name, args, kwargs)])

    def apt_install(self, *args: Any, **kwargs: Any) -> "Image":
        return self._step("apt_install", *args, **kwargs)

    def pip_install(self, *args: Any, **kwargs: Any) -> "Image":
        return self._step("pip_install", *args, **kwargs)

    def run_commands(self, *args: Any, **kwargs: Any) -> "Image":
        return self._step("run_commands", *args, **kwargs)

    def add_local_dir(self, *args: Any, **kwargs: Any) -> "Image":
        return self._step("add_local_dir", *args, **kwargs)

    def add_local_file(self, *args: Any, **kwargs: Any) -> "Image":
        return self._step("add_local_file", *args, **kwargs)

    def add_local_python_source(self, *args: Any, **kwargs: Any) -> "Image":
        return self._step("add_local_python_source", *args, **kwargs)

    def env(self, *args: Any, **kwargs: Any) -> "Image":
        return self._step("env", *args, **kwargs)

    def workdir(self, *args: Any, **kwargs: Any) -> "Image":
        return self._step("workdir", *args, **kwargs)


class Secret:
    """Locally the settings come from the environment of the process."""

    @classmethod
    def from_name(cls, name: str, **kwargs: Any) -> "Secret":
        return cls()

    @classmethod
    def from_dict(cls, values: dict[str, str]) -> "Secret":
        return cls()


class Volume:
    """A Modal volume as a folder that all local processes share."""

    def __init__(self, name: str):
        self.name = name

    @classmethod
    def from_name(cls, name: str, create_if_missing: bool = False, **kwargs: Any) -> "Volume":
        return cls(name)

    def commit(self) -> None:
        pass

    def reload(self) -> None:
        pass


class FunctionCall:
    def __init__(self, object_id: str):
        self.object_id = object_id

    @classmethod
    def from_id(cls, function_call_id: str) -> "FunctionCall":
        if not (_state_dir() / "calls" / f"{function_call_id}.json").exists():
            raise exception.NotFoundError(f"No function call {function_call_id}")
        return cls(function_call_id)

    def _record(self) -> dict:
        return json.loads((_state_dir() / "calls" / f"{self.object_id}.json").read_text())

    def get(self, timeout: float | None = None) -> Any:
        result_file = _state_dir() / "calls" / f"{self.object_id}.result.json"
        if not result_file.exists():
            record = self._record()
            if _alive(record["pid"]):
                if timeout == 0:
                    raise TimeoutError(f"function call {self.object_id} is still running")
                raise NotImplementedError("the local stand-in only supports get(timeout=0)")
            if not result_file.exists():
                raise exception.RemoteError(f"function call {self.object_id} ended without a result (killed or cancelled)")
        result = json.loads(result_file.read_text())
        if "error" in result:
            raise exception.RemoteError(result["error"])
        return result["value"]

    def cancel(self, terminate_containers: bool = False) -> None:
        record = self._record()
        if _alive(record["pid"]):
            try:
                os.killpg(record["pid"], signal.SIGTERM)
            except ProcessLookupError:
                pass


def _alive(pid: int) -> bool:
    try:
        finished, _status = os.waitpid(pid, os.WNOHANG)
        if finished == pid:
            return False
    except ChildProcessError:
        pass  # not our child (another process spawned it): ask the kernel instead
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie of another parent still answers kill(0); its /proc state says it is gone.
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ", 1)[1][0] != "Z"
    except (OSError, IndexError):
        return True


class Function:
    def __init__(self, fn: Callable, options: dict):
        self._fn = fn
        self.options = options
        self.__name__ = fn.__name__
        self.__wrapped__ = fn

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._fn(*args, **kwargs)

    def local(self, *args: Any, **kwargs: Any) -> Any:
        return self._fn(*args, **kwargs)

    def remote(self, *args: Any, **kwargs: Any) -> Any:
        return self._fn(*args, **kwargs)

    def spawn(self, *args: Any, **kwargs: Any) -> FunctionCall:
        call_id = f"fc-{uuid.uuid4().hex}"
        state = _state_dir()
        payload = state / "calls" / f"{call_id}.args.json"
        payload.write_text(json.dumps({"args": args, "kwargs": kwargs}))
        module = sys.modules[self._fn.__module__]
        env = {**os.environ, "MODAL_LOCAL_CALL_ID": call_id, "MODAL_LOCAL_STATE_DIR": str(state)}
        # A new session: cancel() ends the function and everything it started (the CLI, Chromium).
        process = subprocess.Popen(
            [sys.executable, "-m", "modal._run_call", module.__file__ or "", self._fn.__name__, call_id],
            env=env,
            start_new_session=True,
        )
        (state / "calls" / f"{call_id}.json").write_text(json.dumps({"pid": process.pid, "function": self._fn.__name__}))
        return FunctionCall(call_id)


class App:
    def __init__(self, name: str | None = None, **kwargs: Any):
        self.name = name

    def function(self, **options: Any) -> Callable[[Callable], Function]:
        def wrap(fn: Callable) -> Function:
            return fn if isinstance(fn, Function) else Function(fn, options)

        return wrap

    def local_entrypoint(self, **options: Any) -> Callable[[Callable], Callable]:
        return lambda fn: fn


def asgi_app(**options: Any) -> Callable[[Callable], Callable]:
    return lambda fn: fn


def concurrent(**options: Any) -> Callable[[Callable], Callable]:
    return lambda fn: fn
