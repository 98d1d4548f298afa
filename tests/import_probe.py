"""Source for a fresh interpreter that runs a command line and prints which modules it imported."""


def probe_source(cli_module: str) -> str:
    """Python source (for ``python -c SOURCE ARGS...``) that runs ``cli_module``'s click ``main``
    with ARGS and prints one JSON line: ``{"code": exit code, "modules": sorted module names}``."""
    return f"""
import json, sys
from {cli_module} import main
try:
    main(sys.argv[1:])
except SystemExit as exit:
    code = exit.code
print(json.dumps({{"code": code, "modules": sorted(sys.modules)}}))
"""
