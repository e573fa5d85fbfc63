"""Runs one spawned function call in its own process, as a Modal container would."""

import importlib.util
import json
import os
import sys
import traceback
from pathlib import Path


def main() -> None:
    module_file, function_name, call_id = sys.argv[1:4]
    state = Path(os.environ["MODAL_LOCAL_STATE_DIR"]) / "calls"
    payload = json.loads((state / f"{call_id}.args.json").read_text())
    # As in a Modal container, the app's folder is importable (its helper modules live there).
    sys.path.insert(0, os.path.dirname(os.path.abspath(module_file)))
    spec = importlib.util.spec_from_file_location("modal_local_app", module_file)
    module = importlib.util.module_from_spec(spec)
    sys.modules["modal_local_app"] = module
    spec.loader.exec_module(module)
    function = getattr(module, function_name)
    target = getattr(function, "__wrapped__", function)
    try:
        value = target(*payload["args"], **payload["kwargs"])
        result = {"value": value}
    except SystemExit as error:  # a cancel: the function's SIGTERM handler exits (not a crash)
        result = {"error": f"cancelled (exit code {error.code})"}
    except BaseException as error:  # a function's failure is the call's result, as on Modal
        traceback.print_exc()
        result = {"error": f"{type(error).__name__}: {error}"}
    temp = state / f"{call_id}.result.json.partial"
    temp.write_text(json.dumps(result))
    temp.replace(state / f"{call_id}.result.json")


if __name__ == "__main__":
    main()
