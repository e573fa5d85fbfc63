"""Which files a request may name: the rules of relativePathProblem (@seekframe/composition) and
inside() (@seekframe/producer) for the Python app. Plain Python: no Modal, no FastAPI."""

import re
from pathlib import Path


# A backslash or a control character (NUL included): never part of a file name from a request.
_UNSAFE_CHARACTER = re.compile(r"[\x00-\x1f\x7f\\]")


def relative_path_problem(path: str) -> str | None:
    """Why `path` (already percent-decoded) is not a relative POSIX path of plain names, or None.
    The rule of relativePathProblem in @seekframe/composition (src/relative-path.ts)."""
    if not isinstance(path, str) or path == "":
        return "is empty"
    if _UNSAFE_CHARACTER.search(path):
        return "contains a backslash or a control character"
    if path.startswith("/"):
        return "is absolute"
    for segment in path.split("/"):
        if segment == "":
            return 'has an empty segment (a leading, trailing or double "/")'
        if segment in (".", ".."):
            return 'has a "." or ".." segment'
    return None


def inside(root: Path, relative: str) -> Path | None:
    """The real path of `relative` under `root` when it stays inside root's real path, else None.
    The rule of inside() in @seekframe/producer: the letters first (relative_path_problem), then
    symlinks resolved (a link inside root that leads out is refused; for a path that does not
    exist, its nearest existing folder is resolved, so a missing file behind such a link answers
    like an existing one)."""
    if relative_path_problem(relative) is not None:
        return None
    try:
        base = root.resolve(strict=True)
    except (OSError, RuntimeError):
        return None
    try:
        candidate = (base / relative).resolve()
    except (OSError, RuntimeError):  # a symlink loop
        return None
    if candidate != base and base not in candidate.parents:
        return None
    return candidate
