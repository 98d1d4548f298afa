"""Where the cards' QR codes point: ``--base-url``, else ``PRINTKIT_BASE_URL``, else ``printkit.toml``;
and the rest of ``printkit.toml``, a designer's project settings.

Shared by printkit (the URLs it prints) and the companion (the static site it exports and
the canonical links it serves), so both halves read the same setting the same way.

``printkit.toml`` is found in the current folder or the nearest folder above it (as git
finds ``.git``), so every command run anywhere inside a project uses the project's file.
Its ``[printkit]`` table holds :data:`CONFIG_KEYS` and, optionally, a ``[printkit.limits]``
table of :data:`~card_data.project.limit_keys.LIMIT_KEYS` (see :mod:`card_data.project.limits`); anything else
there is an error, so a misspelt key is not silently ignored.
"""

from __future__ import annotations

import ipaddress
import math
import os
import re
import stat
import tomllib
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from card_data.project.limit_keys import LIMIT_KEYS

DEFAULT_BASE_URL = "http://localhost:5000"
ENV_BASE_URL = "PRINTKIT_BASE_URL"
CONFIG_FILE = "printkit.toml"
CONFIG_KEYS = ("base_url", "data", "templates", "out")
"""Keys of ``[printkit]``: the QR base URL, and the project's card data, layout templates and
output folders (relative to the folder holding ``printkit.toml``)."""
LIMITS_TABLE = "limits"
"""The table under ``[printkit]`` holding the limits a project raises (``[printkit.limits]``),
keys :data:`~card_data.project.limit_keys.LIMIT_KEYS`."""


class ConfigError(Exception):
    """A bad base URL or config file; the message names the source.

    For a config file, ``str(error)`` is ``FILE:LINE: message``, and ``file`` (its path),
    ``line`` (1-based) and ``message`` hold the parts; ``file`` is ``""`` otherwise.
    """

    def __init__(self, message: str, file: str = "", line: int = 0):
        self.file, self.line, self.message = file, line, message
        super().__init__(f"{file}:{line}: {message}" if file else message)


@dataclass(frozen=True)
class BaseUrl:
    """The resolved base URL and where it came from (``"--base-url"``, the env var, a file or default)."""

    url: str
    source: str

    @property
    def is_loopback(self) -> bool:
        """True for localhost/127.x/::1: a phone scanning the card cannot reach this computer there."""
        host = urlsplit(self.url).hostname or ""
        if host == "localhost" or host.endswith(".localhost"):
            return True
        try:
            return ipaddress.ip_address(host).is_loopback
        except ValueError:
            return False


MAX_BASE_URL_CHARS = 200
"""The longest base URL taken: every card's QR code holds it, and past ~30 characters the code
already needs a finer print (printkit warns)."""
_NOT_IN_URLS = re.compile(r'[\s"<>\\^`{|}\x00-\x1f\x7f]')


def base_url_problem(url: str) -> str | None:
    """What is wrong with ``url`` as the base URL printed in every QR code, or ``None``: it
    must be ``http(s)://HOST[:PORT][/PATH]``, a port from 1 to 65535, no query, fragment,
    spaces, quotes or control characters, at most :data:`MAX_BASE_URL_CHARS` characters."""
    shown = repr(url) if len(url) <= 80 else f"{url[:60]!r}... ({len(url):,} characters)"
    if len(url) > MAX_BASE_URL_CHARS:
        return f"base URL is longer than {MAX_BASE_URL_CHARS} characters: {shown}"
    bad = _NOT_IN_URLS.search(url)
    if bad:
        return f"base URL must not hold {bad.group(0)!r} (spaces, quotes and control characters): {shown}"
    try:
        parts = urlsplit(url)
        host, port = parts.hostname, parts.port
    except ValueError as exc:  # "Invalid IPv6 URL", "Port out of range 0-65535", a port that is no number
        return f"base URL must look like http://HOST[:PORT][/PATH] ({exc}): {shown}"
    if parts.scheme not in ("http", "https") or not host:
        return f"base URL must look like http://HOST[:PORT][/PATH], got {shown}"
    if port == 0:
        return f"base URL's port must be 1 to 65535: {shown}"
    if parts.query or parts.fragment:
        return f"base URL must not have a query or fragment: {shown}"
    return None


def _check(url: str, source: str, file: str = "", line: int = 0) -> BaseUrl:
    problem = base_url_problem(url)
    if problem is not None:
        raise ConfigError(problem, file, line) if file else ConfigError(f"{source}: {problem}")
    return BaseUrl(url.rstrip("/"), source)


MAX_CONFIG_BYTES = 64 * 1024
"""The largest ``printkit.toml`` read: a few settings take a few hundred bytes."""


def find_config_file(start: Path | None = None) -> Path | None:
    """The ``printkit.toml`` in ``start`` (default: the current folder) or the nearest folder
    above it, or ``None``."""
    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        candidate = folder / CONFIG_FILE
        if os.path.lexists(candidate):  # a folder or a pipe of that name too: read_config says what it is
            return candidate
    return None


def _key_line(text: str, key: str) -> int:
    """1-based line where ``key`` is assigned in TOML ``text``, alone or as the last part of a
    dotted key (``limits.art_dpi = ...``); 1 if not found."""
    for number, line in enumerate(text.splitlines(), start=1):
        name = line.strip().split("=", 1)[0].strip()
        if "=" in line and (name.strip('"') == key or name.replace(" ", "").endswith("." + key)):
            return number
    return 1


def read_config(path: Path) -> dict[str, object]:
    """The ``[printkit]`` table of the config file ``path`` (``{}`` if it has none).

    Raises :class:`ConfigError` as ``FILE:LINE: message`` for unreadable TOML, a
    ``[printkit]`` that is not a table, an unknown key, a value that is not a string, or a
    ``[printkit.limits]`` (``table["limits"]``, a dict) with an unknown key or a value that is
    not a number of its unit above 0 and at most its ceiling
    (:data:`~card_data.project.limit_keys.LIMIT_KEYS`).
    """
    try:
        status = path.stat()
        if not stat.S_ISREG(status.st_mode):
            raise ConfigError("not a regular file (a folder, a named pipe, a device or a broken link): "
                              "printkit.toml must be a text file", str(path), 1)
        if status.st_size > MAX_CONFIG_BYTES:
            raise ConfigError(f"{status.st_size:,} bytes; a printkit.toml holds at most {MAX_CONFIG_BYTES:,}",
                              str(path), 1)
        text = path.read_text(encoding="utf-8")
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        # Python 3.11's error has no line attribute; its message ends "(at line 2, column 5)".
        at = re.search(r"at line (\d+)", str(exc))
        line = getattr(exc, "lineno", None) or (int(at.group(1)) if at else 1)
        raise ConfigError(str(exc), str(path), line) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read: {exc}", str(path), 1) from None
    table = data.get("printkit", {})
    if not isinstance(table, dict):
        raise ConfigError("printkit must be a table ([printkit])", str(path), _key_line(text, "printkit"))
    for key, value in table.items():
        if key == LIMITS_TABLE:
            _check_limits(path, text, value)
            continue
        if key not in CONFIG_KEYS:
            raise ConfigError(f"printkit.{key}: unknown key (known: {', '.join((*CONFIG_KEYS, LIMITS_TABLE))})",
                              str(path), _key_line(text, key))
        if not isinstance(value, str):
            raise ConfigError(f"printkit.{key} must be a string", str(path), _key_line(text, key))
        if key == "base_url":
            _check(value, str(path), str(path), _key_line(text, key))
    return table


def _check_limits(path: Path, text: str, table: object) -> None:
    if not isinstance(table, dict):
        raise ConfigError("printkit.limits must be a table ([printkit.limits])", str(path),
                          _key_line(text, LIMITS_TABLE))
    for key, value in table.items():
        spec = LIMIT_KEYS.get(key)
        if spec is None:
            raise ConfigError(f"printkit.limits.{key}: unknown key (known: {', '.join(LIMIT_KEYS)})", str(path),
                              _key_line(text, key))
        # bool is an int to Python, not a size to anyone.
        number = not isinstance(value, bool) and isinstance(value, int if spec.whole else (int, float))
        if not number or not math.isfinite(value) or value <= 0:
            kind = "a whole number" if spec.whole else "a number"
            raise ConfigError(f"printkit.limits.{key} must be {kind} of {spec.unit} above 0, got {value!r}",
                              str(path), _key_line(text, key))
        if value > spec.most:
            raise ConfigError(f"printkit.limits.{key} may be at most {spec.most:,} {spec.unit} ({spec.why_most}), "
                              f"got {value:,}", str(path), _key_line(text, key))


def resolve_base_url(cli_value: str | None, cwd: Path | None = None) -> BaseUrl:
    """The base URL for QR codes, by precedence: ``cli_value``, ``$PRINTKIT_BASE_URL``,
    ``base_url`` under ``[printkit]`` in the ``printkit.toml`` of ``cwd`` (default: the current
    folder) or the nearest folder above it, then ``http://localhost:5000``.

    Raises :class:`ConfigError` naming the source for a malformed URL or config file.
    """
    if cli_value:
        return _check(cli_value, "--base-url")
    env = os.environ.get(ENV_BASE_URL)
    if env:
        return _check(env, ENV_BASE_URL)
    path = find_config_file(cwd)
    if path is not None:
        value = read_config(path).get("base_url")  # checked there, at its line
        if value is not None:
            return BaseUrl(str(value).rstrip("/"), str(path))
    return BaseUrl(DEFAULT_BASE_URL, "default")
